/* bwlab: helpers that address expressions compile to (src/model/model_expr.c,
 * model_expr_print_opencl). Their semantics are those of src/model/model_arith.c;
 * the host has already checked that no value overflows for any work-item.
 * The *32 helpers are the 32-bit form (model_expr_print_opencl32), used only
 * where the host has proved that every value fits in int and every shift
 * count lies in 0..31. */

long bw_min(long a, long b)
{
    return a < b ? a : b;
}

long bw_max(long a, long b)
{
    return a > b ? a : b;
}

/* multiplication by 2^b, on the bit pattern so that negative values are defined */
long bw_shl(long a, long b)
{
    return (long)((ulong)a << b);
}

/* flooring shift, spelled out so it does not depend on how >> treats negatives */
long bw_shr(long a, long b)
{
    return a >= 0 ? a >> b : ~((~a) >> b);
}

int bw_min32(int a, int b)
{
    return a < b ? a : b;
}

int bw_max32(int a, int b)
{
    return a > b ? a : b;
}

int bw_shl32(int a, int b)
{
    return (int)((uint)a << b);
}

int bw_shr32(int a, int b)
{
    return a >= 0 ? a >> b : ~((~a) >> b);
}

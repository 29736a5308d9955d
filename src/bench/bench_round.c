/* bench_round: the order of one timing round's launches: the shuffle, and
 * the runs of patterns set beside a control launch of their reference
 * (bench_round.h). */
#include "bench_round.h"

#include <stdint.h>

void bench_round_shuffle(size_t *order, size_t *pos, size_t n, size_t k)
{
    uint64_t x = 0x9e3779b97f4a7c15ull * (k + 1);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n; i > 1; i--) {
        x += 0x9e3779b97f4a7c15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        size_t j = (size_t)(z % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        pos[order[i]] = i;
}

size_t bench_round_control_launches(size_t members, int is_reference)
{
    if (members > 0)
        return (members + BENCH_ROUND_RUN - 1) / BENCH_ROUND_RUN;
    return is_reference ? 1 : 0;
}

/* the reference item i is set beside, or -1 */
static long beside_of(const bench_round_input *in, size_t i)
{
    long b = in->beside[i];
    return b >= 0 && (size_t)b < in->n && (size_t)b != i && in->control[b] ? b : -1;
}

/* the run of a reference's `count` members its member of rank `rank` (in
 * the shuffle's order) falls in: runs / count apart, so that the runs'
 * sizes differ by one at most */
static size_t run_of(size_t rank, size_t count)
{
    size_t runs = bench_round_control_launches(count, 1);
    return rank * runs / count;
}

size_t bench_round_sequence(const bench_round_input *in, const size_t *order, const size_t *pos, size_t k,
                            bench_round_entry *out, size_t *scratch)
{
    size_t n = in->n, ne = 0;
    size_t *count = scratch, *rank = scratch + n, *run = scratch + 2 * n;
    for (size_t i = 0; i < n; i++)
        count[i] = 0;
    /* each member's rank among its reference's, in the shuffle's order */
    for (size_t x = 0; x < n; x++) {
        long b = beside_of(in, order[x]);
        if (b >= 0)
            rank[order[x]] = count[b]++;
    }
    for (size_t i = 0; i < n; i++) {
        long b = beside_of(in, i);
        if (b >= 0)
            run[i] = run_of(rank[i], count[b]);
    }
    for (size_t x = 0; x < n; x++) {
        size_t i = order[x];
        long b = beside_of(in, i);
        if (b < 0) {
            out[ne++] = (bench_round_entry){ i, 0 };
        } else if (rank[i] == 0 || run_of(rank[i] - 1, count[b]) != run[i]) {
            /* the run's first member: the whole run goes here, its
             * reference's control launch in its middle */
            size_t first = ne, m = 0;
            for (size_t y = x; y < n; y++) {
                size_t j = order[y];
                if (beside_of(in, j) == b && run[j] == run[i]) {
                    out[ne++] = (bench_round_entry){ j, 0 };
                    m++;
                }
            }
            size_t c = first + (m + (k & 1)) / 2;
            for (size_t e = ne; e > c; e--)
                out[e] = out[e - 1];
            out[c] = (bench_round_entry){ (size_t)b, 1 };
            ne++;
        }
        /* a reference none is set beside: half a round from its own turn */
        for (size_t j = 0; j < n; j++)
            if (in->control[j] && count[j] == 0 && (pos[j] + n / 2) % n == x)
                out[ne++] = (bench_round_entry){ j, 1 };
    }
    return ne;
}

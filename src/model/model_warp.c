/* model_warp: the distinct sectors and lines one warp-instruction
 * touches, and its efficiencies over distinct bytes (model_warp.h). */
#include "model_warp.h"

#include <stdlib.h>

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void sort_i64(int64_t *v, int n)
{
    if (n > 64) {
        qsort(v, (size_t)n, sizeof *v, cmp_i64);
        return;
    }
    /* warps are small and often already ordered: insertion sort is linear then */
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

void model_warp_units(int64_t *addr, int n, int64_t elem, int64_t sector, int64_t line,
                      model_unit_counts *out)
{
    out->distinct_bytes = out->sectors = out->lines = 0;
    out->min_addr = out->max_byte = 0;
    if (n <= 0)
        return;
    sort_i64(addr, n);
    /* Equal-length ranges sorted by start are sorted by end too, so a unit
     * already counted is always the last one counted. */
    int64_t cur_hi = 0, last_s = 0, last_l = 0;
    for (int i = 0; i < n; i++) {
        int64_t lo = addr[i], hi = addr[i] + (elem - 1);
        if (i == 0 || lo > cur_hi) {
            out->distinct_bytes += elem;
            cur_hi = hi;
        } else if (hi > cur_hi) {
            out->distinct_bytes += hi - cur_hi;
            cur_hi = hi;
        }
        int64_t s0 = model_unit_of(lo, sector), s1 = model_unit_of(hi, sector);
        int64_t l0 = model_unit_of(lo, line), l1 = model_unit_of(hi, line);
        if (i > 0 && s0 <= last_s)
            s0 = last_s + 1;
        if (s1 >= s0)
            out->sectors += s1 - s0 + 1;
        if (i > 0 && l0 <= last_l)
            l0 = last_l + 1;
        if (l1 >= l0)
            out->lines += l1 - l0 + 1;
        if (i == 0 || s1 > last_s)
            last_s = s1;
        if (i == 0 || l1 > last_l)
            last_l = l1;
    }
    out->min_addr = addr[0];
    out->max_byte = cur_hi;
}

bw_code model_warp_count(const model_geometry *geo, int64_t elem, const int64_t *addr,
                         const model_lanes *active, model_warp *out, bw_error *err)
{
    if (elem < 1 || elem > MODEL_MAX_ELEM)
        return bw_error_set(err, BW_E_USAGE, "element size %lld is out of range (1..%lld bytes)",
                            (long long)elem, (long long)MODEL_MAX_ELEM);
    int64_t tmp[MODEL_MAX_LANES];
    int n = 0;
    for (int t = 0; t < geo->lanes; t++) {
        if (!model_lanes_has(active, t))
            continue;
        if (addr[t] > INT64_MAX - (elem - 1))
            return bw_error_set(err, BW_E_RANGE,
                                "lane %d at address %lld touches bytes beyond 2^63-1", t,
                                (long long)addr[t]);
        tmp[n++] = addr[t];
    }
    model_unit_counts c;
    model_warp_units(tmp, n, elem, geo->sector, geo->line, &c);
    out->lanes = geo->lanes;
    out->active_lanes = n;
    out->elem_bytes = elem;
    out->requested_bytes = elem * n;
    out->distinct_bytes = c.distinct_bytes;
    out->sector_bytes = geo->sector;
    out->sectors = c.sectors;
    out->line_bytes = geo->line;
    out->lines = c.lines;
    out->has_efficiency = n > 0;
    out->sector_efficiency = n > 0 ? (double)c.distinct_bytes / ((double)c.sectors * (double)geo->sector) : 0.0;
    out->line_efficiency = n > 0 ? (double)c.distinct_bytes / ((double)c.lines * (double)geo->line) : 0.0;
    out->dram_unit_bytes = geo->dram_unit;
    out->dram_units = 0;
    out->dram_unit_efficiency = 0.0;
    if (geo->dram_unit > 0 && n > 0) {
        /* the same count with the DRAM unit as the sector (tmp is sorted now) */
        model_unit_counts d;
        model_warp_units(tmp, n, elem, geo->dram_unit, geo->dram_unit, &d);
        out->dram_units = d.sectors;
        out->dram_unit_efficiency = (double)c.distinct_bytes / ((double)d.sectors * (double)geo->dram_unit);
    }
    return BW_OK;
}

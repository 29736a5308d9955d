/* bench_family: the table of kernel families, the lookup of an entry by
 * kernel name, and the defaults the entries share: buffer sizes, 64-bit
 * indexing, a destination filled with the sentinel (bench_family.h). */
#include "bench_family.h"

#include <string.h>

#include "bench_validate.h"
#include "model_pattern.h"

static const bench_family *const entries[] = {
    &bench_family_gather,
    &bench_family_bank,
    &bench_family_transpose,
    &bench_family_record,
};

const bench_family *bench_family_of(const char *kernel)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!strcmp(entries[i]->kernel, kernel))
            return entries[i];
    return NULL;
}

int bench_family_is(const bench_item *it, const char *kernel)
{
    return !strcmp(it->fam->kernel, kernel);
}

int bench_family_is_reference(const bench_item *it)
{
    return it->fam->is_reference(it);
}

int bench_family_keyed(const bench_item *it)
{
    return it->access == BENCH_ACCESS_READ && !it->fam->program;
}

int64_t bench_family_src_bytes(const bench_item *it)
{
    return it->access == BENCH_ACCESS_WRITE ? it->items * it->elem : it->span.max_end;
}

int64_t bench_family_dst_bytes(const bench_item *it)
{
    if (it->access == BENCH_ACCESS_WRITE)
        return it->span.max_end;
    return it->items * (it->fam->dst_elem ? it->fam->dst_elem : it->elem);
}

double bench_family_model_bytes(const bench_item *it)
{
    return (double)(it->model.loads.requested_bytes + it->model.stores.requested_bytes);
}

bw_code bench_family_index_long(const bench_plan *p, bench_item *it, int index_opt, int is_gpu, bw_error *err)
{
    (void)p, (void)index_opt, (void)is_gpu, (void)err;
    it->index32_proven = it->items <= INT32_MAX;
    it->index_bits = 64;
    return BW_OK;
}

bw_code bench_family_fill_dst(const bench_family_io *io, uint64_t bytes, bw_error *err)
{
    bw_code rc = BW_OK;
    for (uint64_t off = 0; off < bytes && rc == BW_OK; off += io->stage_bytes) {
        uint64_t n = bytes - off < io->stage_bytes ? bytes - off : io->stage_bytes;
        if (io->stop && *io->stop)
            return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
        bench_fill_sentinel_at(io->stage, off, n);
        rc = io->write_dst(io->ctx, off, io->stage, n, err);
    }
    return rc;
}

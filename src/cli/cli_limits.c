#include "cli_limits.h"

#include <string.h>

#include "bench_host.h"

bench_limits cli_device_limits(const ocl_device_info *d)
{
    bench_limits l;
    memset(&l, 0, sizeof l);
    l.cache_bytes = d->global_cache_bytes;
    l.max_alloc_bytes = d->max_alloc_bytes;
    l.global_mem_bytes = d->global_mem_bytes;
    l.max_work_group = d->max_work_group_size;
    l.is_gpu = d->type == OCL_TYPE_GPU;
    l.address_bits = d->address_bits;
    if (d->type == OCL_TYPE_CPU)
        bench_host_llc("/sys", &l.host_llc_bytes, l.host_llc_source, sizeof l.host_llc_source);
    return l;
}

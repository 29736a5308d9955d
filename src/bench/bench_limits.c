/* bench_limits: a device's limits as the plan takes them (the host's cache
 * for a CPU device), the buffer sizes they allow, and a roofline's options
 * on the device (bench_limits.h). */
#include "bench_limits.h"
#include "bench_device.h"
#include "bench_plan_priv.h"
#include "bench_roofline.h"

#include <string.h>

#include "bench_host.h"

bench_limits bench_device_limits(const ocl_device_info *d)
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

bw_code bench_roofline_opts_of(const ocl_device_info *d, const bench_settings *settings, double budget_s, uint64_t size,
                          bench_roofline_opts *o, bw_error *err)
{
    const uint64_t mib = (uint64_t)1 << 20;
    uint64_t t = 0, most = 0;
    memset(o, 0, sizeof *o);
    bw_code rc = bench_buffer_plan(d, size, 2, &t, &most, err);
    if (rc != BW_OK)
        return rc;
    if (size && size > most)
        return bw_error_set(err, BW_E_TOOBIG,
                            "roofline buffer %llu bytes: more than the %llu MiB the memory budget allows it (half "
                            "of 3/4 of global memory); give %lluM or less",
                            (unsigned long long)size, (unsigned long long)(most / mib),
                            (unsigned long long)(most / mib));
    t = (t < most ? t : most) / mib * mib;
    if (t < mib)
        return bw_error_set(err, BW_E_TOOBIG, "the device's memory allows no 1 MiB roofline buffer");
    o->buffer_bytes = t;
    o->budget_s = budget_s;
    o->min_launch_ns = bench_launch_floor_ns(settings, d->timer_resolution_ns);
    return BW_OK;
}

bw_code bench_buffer_plan(const ocl_device_info *d, uint64_t size, int nbuffers, uint64_t *target, uint64_t *most,
                        bw_error *err)
{
    static const char *const seq[] = { "seq" };
    const uint64_t mib = (uint64_t)1 << 20;
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o;
    memset(&o, 0, sizeof o);
    o.specs = seq;
    o.nspecs = 1;
    o.size = size;
    bench_plan *p = NULL;
    bw_code rc = bench_plan_make(&o, &d->geo, &lim, &p, err);
    if (rc != BW_OK)
        return rc;
    *target = p->target_bytes;
    *most = p->budget_bytes == UINT64_MAX ? p->target_bytes : p->budget_bytes / (uint64_t)nbuffers / mib * mib;
    bench_plan_free(p);
    return BW_OK;
}

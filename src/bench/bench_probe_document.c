/* bench_probe_document: `bwlab probe`'s results document (docs/results.md,
 * "bwlab probe"), the transfers part `bwlab run --transfers` embeds, and
 * the sentences that set the inferred unit and cache levels beside the
 * profile's, the host's and the device's (bench_probe.h). */
#include "bench_probe_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results_json.h"
#include "results_plausibility.h"
#include "results_probe_fields.h"
#include "results_schema.h"

static const char *dir_name(const bench_probe_transfer *t)
{
    return t->to_device ? "h2d" : "d2h";
}

static const char *mem_name(const bench_probe_transfer *t)
{
    return t->pinned ? "pinned" : "pageable";
}

void bench_probe_agreement(bw_buf *out, const bench_probe_result *r, const model_geometry *g)
{
    int64_t u = r->inferred_unit;
    if (!u) {
        bw_buf_printf(out, "nothing to compare with the profile's sector (%lld B) and line (%lld B): %s",
                      (long long)g->sector, (long long)g->line, r->unit_why);
        return;
    }
    if (u == g->sector && u == g->line)
        bw_buf_printf(out, "agrees with the profile's sector and line (%lld B)", (long long)u);
    else if (u == g->sector)
        bw_buf_printf(out, "agrees with the profile's sector (%lld B; its line is %lld B)", (long long)u,
                      (long long)g->line);
    else if (u == g->line)
        bw_buf_printf(out, "agrees with the profile's line (%lld B), not its sector (%lld B)", (long long)u,
                      (long long)g->sector);
    else
        bw_buf_printf(out, "disagrees with the profile: measured %lld B, the profile's sector is %lld B and its line "
                           "%lld B",
                      (long long)u, (long long)g->sector, (long long)g->line);
}

/* a size rounded for a sentence: "45 MiB", "1.4 MiB", "724 KiB" */
static void about_bytes(bw_buf *out, uint64_t b)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (v >= 10 || v == floor(v))
        bw_buf_printf(out, "%.0f %s", v, unit[u]);
    else
        bw_buf_printf(out, "%.1f %s", v, unit[u]);
}

/* who places a knee: dependent loads when the latency ladder's bend
 * does (levels read back from a file without it: when that ladder shows it) */
static const char *knee_by(const bench_probe_level *l)
{
    return (l->placed ? l->placed : l->seen) & MODEL_FIT_SEEN_B ? "dependent loads" : "reads";
}

static const char *seen_name(int seen)
{
    if (seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B))
        return "both";
    return seen & MODEL_FIT_SEEN_B ? "latency" : seen & MODEL_FIT_SEEN_A ? "bandwidth" : "none";
}

void bench_probe_level_agreement(bw_buf *out, const bench_probe_result *r, size_t k)
{
    const bench_probe_level *l = &r->levels[k];
    if (l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches) {
        const bench_host_cache *h = &r->host_caches[l->host_match];
        if (model_fit_size_agrees(h->size_bytes, l->size_bytes, l->next_bytes)) {
            bw_buf_printf(out, "agrees with the host's L%d (", h->level);
            about_bytes(out, h->size_bytes);
            bw_buf_putc(out, ')');
        } else {
            bw_buf_printf(out, "the host reports L%d ", h->level);
            about_bytes(out, h->size_bytes);
            bw_buf_printf(out, "; %s leave this level at about ", knee_by(l));
            about_bytes(out, l->size_bytes);
        }
        return;
    }
    if (!r->n_host_caches) {
        bw_buf_puts(out, r->is_cpu ? "no host caches to compare with (the host's /sys/devices/system/cpu/cpu0/cache lists none)"
                                   : "no host caches to compare with (the host's are read for a CPU device only)");
        return;
    }
    bw_buf_puts(out, "matches no cache the host reports (");
    for (size_t i = 0; i < r->n_host_caches; i++) {
        bw_buf_printf(out, "%sL%d ", i ? ", " : "", r->host_caches[i].level);
        about_bytes(out, r->host_caches[i].size_bytes);
    }
    bw_buf_printf(out, "): a step of the %s ladder%s", l->seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B) ? "read and latency" :
                                                          l->seen & MODEL_FIT_SEEN_B ? "latency" : "read",
                  l->seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B) ? "s" : "");
}

void bench_probe_device_cache_agreement(bw_buf *out, const bench_probe_result *r)
{
    uint64_t d = r->device_cache_bytes;
    if (!d) {
        bw_buf_puts(out, "the device reports no global cache size (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is 0)");
        return;
    }
    if (!r->n_levels) {
        bw_buf_puts(out, "the device reports ");
        about_bytes(out, d);
        bw_buf_puts(out, r->interrupted && !r->have_memory ? "; the ladder was interrupted before any level was derived"
                                                           : "; the ladders show no knee");
        return;
    }
    for (size_t k = 0; k < r->n_levels; k++)
        if (model_fit_size_agrees(d, r->levels[k].size_bytes, r->levels[k].next_bytes)) {
            bw_buf_puts(out, "the device's ");
            about_bytes(out, d);
            bw_buf_printf(out, " agrees with L%zu (its plateau ends at ", k + 1);
            about_bytes(out, r->levels[k].size_bytes);
            bw_buf_putc(out, ')');
            return;
        }
    const bench_probe_level *l = &r->levels[r->n_levels - 1];
    bw_buf_puts(out, "the device reports ");
    about_bytes(out, d);
    const bench_host_cache *h =
        l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches ? &r->host_caches[l->host_match] : NULL;
    if (h && h->size_bytes && d > 2 * h->size_bytes && (size_t)l->host_match + 1 < r->n_host_caches) {
        /* the last level is a smaller cache's: no knee was found for this one */
        bw_buf_printf(out, "; no level past L%zu (", r->n_levels);
        about_bytes(out, l->size_bytes);
        bw_buf_printf(out, ", the host's L%d) stands: the ladders reach memory without another knee", h->level);
        return;
    }
    bw_buf_printf(out, "; %s leave the cache at about ", knee_by(l));
    about_bytes(out, l->size_bytes);
}

json_t *bench_probe_transfers_json(const bench_probe_result *r)
{
    json_t *o = json_object();
    json_t *a = json_array();
    for (size_t i = 0; i < r->n_transfers; i++) {
        const bench_probe_transfer *t = &r->transfers[i];
        json_t *x = json_object();
        json_object_set_new(x, RP_KEY(RP_DIRECTION), json_string(dir_name(t)));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_MEMORY), json_string(mem_name(t)));
        json_object_set_new(x, RP_KEY(RP_BLOCKING), json_boolean(t->blocking));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_BYTES), json_integer((json_int_t)t->bytes));
        json_object_set_new(x, RP_KEY(RP_GBS), results_json_real(t->gbs, 1));
        json_object_set_new(x, RP_KEY(RP_US), results_json_real(t->us, 1));
        json_array_append_new(a, x);
    }
    json_object_set_new(o, RP_KEY(RP_TRANSFERS), a);
    json_object_set_new(o, RP_KEY(RP_TRANSFERS_NOTE), r->transfers_note[0] ? json_string(r->transfers_note) : json_null());
    json_object_set_new(o, RP_KEY(RP_SMALL_TRANSFER_LATENCY_US), results_json_real(r->small_transfer_us, r->n_transfers > 0));
    json_object_set_new(o, RP_KEY(RP_SMALL_TRANSFER_BYTES), json_integer((json_int_t)r->small_transfer_bytes));
    json_object_set_new(o, RP_KEY(RP_LAUNCH_LATENCY_US), results_json_real(r->launch_wall_us, r->launches > 0));
    json_t *l = json_object();
    json_object_set_new(l, RP_KEY(RP_LAUNCHES), json_integer(r->launches));
    json_object_set_new(l, RP_KEY(RP_WALL_US), results_json_real(r->launch_wall_us, r->launches > 0));
    json_object_set_new(l, RP_KEY(RP_TIMER), json_string(r->launch_timer_wall ? "wall" : "event"));
    json_object_set_new(l, RP_KEY(RP_QUEUED_TO_START_US),
                        results_json_real(r->launch_start_us, r->launches > 0 && !r->launch_timer_wall));
    json_object_set_new(l, RP_KEY(RP_QUEUED_TO_END_US), results_json_real(r->launch_end_us, r->launches > 0));
    json_object_set_new(l, RP_KEY(RP_NOTE), r->launch_note[0] ? json_string(r->launch_note) : json_null());
    json_object_set_new(o, RP_KEY(RP_LAUNCH), l);
    json_t *ma = json_array();
    for (size_t i = 0; i < r->n_maps; i++) {
        const bench_probe_map *m = &r->maps[i];
        const bench_probe_map_verdict *v = &r->map_verdict[m->to_device];
        json_t *x = json_object();
        json_object_set_new(x, RP_KEY(RP_DIRECTION), json_string(m->to_device ? "h2d" : "d2h"));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_MEMORY), json_string("alloc_host_ptr"));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_BYTES), json_integer((json_int_t)m->bytes));
        json_object_set_new(x, RP_KEY(RP_US), results_json_real(m->us, 1));
        json_object_set_new(x, RP_KEY(RP_COPY_US), results_json_real(m->copy_us, m->copy_us > 0));
        json_object_set_new(x, RP_KEY(RP_GBS), results_json_real(m->gbs, m->gbs > 0));
        json_object_set_new(x, RP_KEY(RP_ZERO_COPY), json_boolean(m->zero_copy));
        json_object_set_new(x, RP_KEY(RP_SAME_POINTER), json_boolean(v->same_pointer));
        json_object_set_new(x, RP_KEY(RP_NOTE), json_string(r->map_note[m->to_device]));
        json_array_append_new(ma, x);
    }
    json_object_set_new(o, RP_KEY(RP_MAPS), ma);
    return o;
}

static json_t *level_json(const bench_probe_result *r, size_t k, int valid_lat, int with_size)
{
    const bench_probe_level *l = &r->levels[k];
    json_t *o = json_object();
    if (with_size) {
        json_object_set_new(o, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)l->size_bytes));
        json_object_set_new(o, RP_KEY(RP_NEXT_BYTES), json_integer((json_int_t)l->next_bytes));
        json_object_set_new(o, RP_KEY(RP_SEEN_IN), json_string(seen_name(l->seen)));
        json_object_set_new(o, RP_KEY(RP_PLACED_BY), l->placed ? json_string(seen_name(l->placed)) : json_null());
        json_object_set_new(o, RP_KEY(RP_HOST_CACHE_LEVEL),
                            l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches
                                ? json_integer(r->host_caches[l->host_match].level)
                                : json_null());
        bw_buf ag = BW_BUF_INIT;
        bench_probe_level_agreement(&ag, r, k);
        json_object_set_new(o, RP_KEY(RP_AGREEMENT), json_string(bw_buf_str(&ag)));
        bw_buf_free(&ag);
    }
    json_object_set_new(o, RP_KEY(RP_READ_GBS), results_json_real(l->read_gbs, 1));
    json_object_set_new(o, RP_KEY(RP_LATENCY_NS), results_json_real(l->latency_ns, valid_lat));
    json_object_set_new(o, RP_KEY(RP_LATENCY_PER_CU_NS), results_json_real(l->latency_cu_ns, valid_lat));
    json_object_set_new(o, RP_KEY(RP_LATENCY_PAGE_NS), results_json_real(l->latency_page_ns, valid_lat && r->page_levels));
    return o;
}

/* the random chase's knees the page-local chase lacks (measured) */
static json_t *tlb_json(const bench_probe_result *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->n_tlb; i++) {
        const bench_probe_tlb *t = &r->tlb[i];
        json_t *o = json_object();
        json_object_set_new(o, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)t->size_bytes));
        json_object_set_new(o, RP_KEY(RP_NEXT_BYTES), json_integer((json_int_t)t->next_bytes));
        json_object_set_new(o, RP_KEY(RP_BELOW_LATENCY_NS), results_json_real(t->below_ns, 1));
        json_object_set_new(o, RP_KEY(RP_ABOVE_LATENCY_NS), results_json_real(t->above_ns, 1));
        json_object_set_new(o, RP_KEY(RP_STEP), results_json_real(t->step, 1));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *fit_json(const model_fit_candidate *c)
{
    json_t *o = json_object();
    json_object_set_new(o, RP_KEY(RP_SCALE), results_json_real(c->a, 1));
    json_object_set_new(o, RP_KEY(RP_OFFSET), results_json_real(c->b, 1));
    json_object_set_new(o, RP_KEY(RP_RESIDUAL), results_json_real(c->rms_rel, 1));
    json_object_set_new(o, RP_KEY(RP_UNEXPLAINED), results_json_real(c->rel, 1));
    return o;
}

/* the host's caches (sysfs) and the level each matched */
static json_t *host_caches_json(const bench_probe_result *r)
{
    json_t *hc = json_array();
    for (size_t i = 0; i < r->n_host_caches; i++) {
        json_t *c = json_object();
        json_object_set_new(c, RP_KEY(RP_LEVEL), json_integer(r->host_caches[i].level));
        json_object_set_new(c, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)r->host_caches[i].size_bytes));
        json_object_set_new(c, RP_KEY(RP_LINE_BYTES), json_integer((json_int_t)r->host_caches[i].line_bytes));
        json_t *ml = json_null();
        for (size_t k = 0; k < r->n_levels; k++)
            if (r->levels[k].host_match == (int)i)
                ml = json_integer((json_int_t)(k + 1));
        json_object_set_new(c, RP_KEY(RP_MATCHED_LEVEL), ml);
        json_array_append_new(hc, c);
    }
    return hc;
}

/* the ladder's points (measured) */
static json_t *ladder_json(const bench_probe_result *r)
{
    json_t *lad = json_array();
    for (size_t i = 0; i < r->n_points; i++) {
        json_t *p = json_object();
        json_object_set_new(p, RP_KEY(RP_BYTES), json_integer((json_int_t)r->points[i].bytes));
        json_object_set_new(p, RP_KEY(RP_READ_GBS), results_json_real(r->points[i].read_gbs, 1));
        json_object_set_new(p, RP_KEY(RP_LATENCY_NS), results_json_real(r->points[i].latency_ns, r->chase_valid));
        json_object_set_new(p, RP_KEY(RP_LATENCY_PER_CU_NS), results_json_real(r->points[i].latency_cu_ns, r->chase_valid));
        json_object_set_new(p, RP_KEY(RP_LATENCY_PAGE_NS),
                            results_json_real(r->points[i].latency_page_ns, r->chase_valid && r->points[i].latency_page_ns > 0));
        json_array_append_new(lad, p);
    }
    return lad;
}

/* the stride and offset sweeps and each candidate unit's fits */
static json_t *granularity_json(const bench_probe_result *r)
{
    json_t *g = json_object();
    json_object_set_new(g, RP_KEY(RP_WORKING_SET_BYTES), json_integer((json_int_t)r->gran_bytes));
    json_object_set_new(g, RP_KEY(RP_BLOCK_BYTES), json_integer(BENCH_PROBE_BLOCK));
    json_t *ss = json_array(), *os = json_array(), *cs = json_array();
    for (size_t i = 0; i < r->n_strides; i++) {
        json_t *p = json_object();
        json_object_set_new(p, RP_KEY(RP_STRIDE_BYTES), json_integer((json_int_t)r->stride_x[i]));
        json_object_set_new(p, RP_KEY(RP_NS_PER_ELEMENT), results_json_real(r->stride_ns[i], 1));
        json_array_append_new(ss, p);
    }
    for (size_t i = 0; i < r->n_offsets; i++) {
        json_t *p = json_object();
        json_object_set_new(p, RP_KEY(RP_OFFSET_BYTES), json_integer((json_int_t)r->offset_x[i]));
        json_object_set_new(p, RP_KEY(RP_NS_PER_BLOCK), results_json_real(r->offset_ns[i], 1));
        json_array_append_new(os, p);
    }
    for (size_t k = 0; k < BENCH_PROBE_UNITS && r->n_strides; k++) {
        json_t *c = json_object();
        json_object_set_new(c, RP_KEY(RP_UNIT_BYTES), json_integer((json_int_t)r->units[k]));
        json_t *sf = fit_json(&r->stride_fit[k]), *of = fit_json(&r->offset_fit[k]);
        json_t *sm = json_array(), *om = json_array();
        for (size_t i = 0; i < r->n_strides; i++)
            json_array_append_new(sm, results_json_real(r->stride_model[k][i], 1));
        for (size_t i = 0; i < r->n_offsets; i++)
            json_array_append_new(om, results_json_real(r->offset_model[k][i], 1));
        json_object_set_new(sf, RP_KEY(RP_MODELED), sm);
        json_object_set_new(of, RP_KEY(RP_MODELED), om);
        json_object_set_new(c, RP_KEY(RP_STRIDE_FIT), sf);
        json_object_set_new(c, RP_KEY(RP_OFFSET_FIT), of);
        json_array_append_new(cs, c);
    }
    json_object_set_new(g, RP_KEY(RP_STRIDE_SWEEP), ss);
    json_object_set_new(g, RP_KEY(RP_OFFSET_SWEEP), os);
    json_object_set_new(g, RP_KEY(RP_CANDIDATES), cs);
    return g;
}

/* the sector-pair experiment: measured ns per element, their ratio and
 * the unit it implies */
static json_t *pairs_json(const bench_probe_result *r)
{
    json_t *o = json_object();
    int have = r->pair_ns[0] > 0;
    json_object_set_new(o, RP_KEY(RP_ADJACENT_NS_PER_ELEMENT), results_json_real(r->pair_ns[0], have));
    json_object_set_new(o, RP_KEY(RP_SPLIT_NS_PER_ELEMENT), results_json_real(r->pair_ns[1], have));
    json_object_set_new(o, RP_KEY(RP_APART_NS_PER_ELEMENT), results_json_real(r->pair_ns[2], have));
    json_object_set_new(o, RP_KEY(RP_RATIO), results_json_real(r->pair_ratio, have && isfinite(r->pair_ratio)));
    json_object_set_new(o, RP_KEY(RP_UNIT_BYTES), r->pair_unit ? json_integer((json_int_t)r->pair_unit) : json_null());
    json_object_set_new(o, RP_KEY(RP_REASON), r->pair_unit ? json_null() : json_string(r->pair_why));
    return o;
}

static json_t *device_json(const bench_probe_doc_device *dv)
{
    const bench_probe_result *r = dv->result;
    const bench_device *d = dv->device;
    json_t *o = json_object();
    json_object_set_new(o, RP_KEY(RP_DEVICE), bench_device_json(d, dv->is_default));
    json_object_set_new(o, RP_KEY(RP_STATUS), json_string(r ? "probed" : "failed"));
    json_object_set_new(o, RP_KEY(RP_FAILURE), dv->failure ? json_string(dv->failure) : json_null());
    json_object_set_new(o, RP_KEY(RP_CACHE_NOTE), dv->cache_note ? json_string(dv->cache_note) : json_null());
    if (!r)
        return o;
    json_object_set_new(o, RP_KEY(RP_QUICK), json_boolean(r->quick));
    json_object_set_new(o, RP_KEY(RP_INTERRUPTED), json_boolean(r->interrupted));
    json_object_set_new(o, RP_KEY(RP_INTERRUPTED_IN), r->interrupted ? json_string(r->interrupted_in) : json_null());
    json_object_set_new(o, RP_KEY(RP_SECONDS), json_real(r->seconds));
    json_object_set_new(o, RP_KEY(RP_KERNEL_FILE), r->kernel_path ? json_string(r->kernel_path) : json_null());
    /* the contract keys */
    json_object_set_new(o, RP_KEY(RP_INFERRED_UNIT_BYTES),
                        r->inferred_unit ? json_integer((json_int_t)r->inferred_unit) : json_null());
    json_object_set_new(o, RP_KEY(RP_INFERRED_UNIT_REASON), r->inferred_unit ? json_null() : json_string(r->unit_why));
    json_object_set_new(o, RP_KEY(RP_SECTOR_PAIRS), pairs_json(r));
    json_object_set_new(o, RP_KEY(RP_PROFILE_UNIT_BYTES), json_integer((json_int_t)d->geo.sector));
    json_object_set_new(o, RP_KEY(RP_PROFILE_LINE_BYTES), json_integer((json_int_t)d->geo.line));
    bw_buf ag = BW_BUF_INIT;
    bench_probe_agreement(&ag, r, &d->geo);
    json_object_set_new(o, RP_KEY(RP_UNIT_AGREEMENT), json_string(bw_buf_str(&ag)));
    bw_buf_free(&ag);
    json_t *lv = json_array();
    for (size_t i = 0; i < r->n_levels; i++)
        json_array_append_new(lv, level_json(r, i, r->chase_valid, 1));
    json_object_set_new(o, RP_KEY(RP_CACHE_LEVELS), lv);
    json_object_set_new(o, RP_KEY(RP_MEMORY),
                        r->have_memory ? level_json(r, r->n_levels, r->chase_valid, 0) : json_null());
    /* the memory plateau against the device's nominal peak */
    char words[RESULTS_PLAUSIBILITY_MAX];
    const char *pl = r->have_memory ? results_nominal_plausibility(r->levels[r->n_levels].read_gbs, dv->nominal_gbs,
                                                                  words, sizeof words)
                                    : NULL;
    json_object_set_new(o, RP_KEY(RP_NOMINAL_DRAM_GBS), dv->nominal_gbs > 0 ? json_real(dv->nominal_gbs) : json_null());
    json_object_set_new(o, RP_KEY(RP_MEMORY_PLAUSIBILITY), pl ? json_string(pl) : json_null());
    json_object_set_new(o, RP_KEY(RP_DEVICE_CACHE_BYTES), json_integer((json_int_t)r->device_cache_bytes));
    bw_buf dag = BW_BUF_INIT;
    bench_probe_device_cache_agreement(&dag, r);
    json_object_set_new(o, RP_KEY(RP_DEVICE_CACHE_AGREEMENT), json_string(bw_buf_str(&dag)));
    bw_buf_free(&dag);
    json_object_set_new(o, RP_KEY(RP_HOST_CACHES), host_caches_json(r));
    json_object_set_new(o, RP_KEY(RP_LADDER), ladder_json(r));
    json_object_set_new(o, RP_KEY(RP_LEVELS_FROM), json_string(r->page_levels ? "page-local chase" : "random chase"));
    json_object_set_new(o, RP_KEY(RP_TLB_REACHES), r->page_levels ? tlb_json(r) : json_null());
    json_t *cv = json_object();
    json_object_set_new(cv, RP_KEY(RP_VALID), json_boolean(r->chase_valid));
    json_object_set_new(cv, RP_KEY(RP_NOTE), json_string(r->chase_note));
    json_object_set_new(o, RP_KEY(RP_CHASE_VALIDATION), cv);
    json_object_set_new(o, RP_KEY(RP_GRANULARITY), granularity_json(r));
    json_object_set_new(o, RP_KEY(RP_INFERRED_LANES), r->inferred_lanes ? json_integer((json_int_t)r->inferred_lanes) : json_null());
    json_object_set_new(o, RP_KEY(RP_INFERRED_LANES_REASON), json_string(r->lanes_why));
    json_t *ls = json_array();
    for (size_t i = 0; i < r->n_lanes; i++) {
        json_t *p = json_object();
        json_object_set_new(p, RP_KEY(RP_WORK_GROUP_SIZE), json_integer((json_int_t)r->lanes_x[i]));
        json_object_set_new(p, RP_KEY(RP_NS), results_json_real(r->lanes_ns[i], 1));
        json_array_append_new(ls, p);
    }
    json_object_set_new(o, RP_KEY(RP_LANES_SWEEP), ls);
    json_object_set_new(o, RP_KEY(RP_PROFILE_LANES), json_integer(d->geo.lanes));
    json_object_set_new(o, RP_KEY(RP_INFERRED_BANKS), r->inferred_banks ? json_integer(r->inferred_banks) : json_null());
    json_object_set_new(o, RP_KEY(RP_INFERRED_BANKS_REASON), json_string(r->banks_why));
    json_t *t = bench_probe_transfers_json(r);
    json_object_update(o, t);
    json_decref(t);
    return o;
}

json_t *bench_probe_document(const bench_probe_doc_meta *m, const bench_probe_doc_device *d, size_t n)
{
    json_t *o = results_json_document(RESULTS_PROBE_SCHEMA, RESULTS_PROBE_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return NULL;
    json_object_set_new(o, RP_KEY(RP_CACHE_FILE), m->cache_file ? json_string(m->cache_file) : json_null());
    json_object_set_new(o, RP_KEY(RP_INTERRUPTED), json_boolean(m->interrupted));
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(devs, device_json(&d[k]));
    json_object_set_new(o, RP_KEY(RP_DEVICES), devs);
    return o;
}

/* ocl_device: discovery of every platform and device, their queried
 * properties and chosen profile, the reasons a platform is unusable, and
 * --device selection (ocl_device.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "ocl_device.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bw_buf.h"
#include "bw_format.h"
#include "bw_parse.h"
#include "ocl_error.h"
#include "ocl_internal.h"

/* Vendor queries, in case the installed headers predate them. */
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#ifndef CL_DEVICE_WAVEFRONT_WIDTH_AMD
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#endif
#ifndef CL_DEVICE_BOARD_NAME_AMD
#define CL_DEVICE_BOARD_NAME_AMD 0x4038
#endif
#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

struct ocl_platforms {
    ocl_device_info *devs;
    cl_device_id *dev_ids;
    cl_platform_id *plat_ids; /* one per device */
    size_t n;
    void **owned; /* every string and array the infos point to */
    size_t n_owned, cap_owned;
    ocl_platform_problem *problems;
    size_t n_problems;
};

/* Takes ownership of ptr (freed with p, or now if it cannot be recorded). */
static int own(ocl_platforms *p, void *ptr)
{
    if (p->n_owned == p->cap_owned) {
        size_t cap = p->cap_owned ? 2 * p->cap_owned : 64;
        void **o = realloc(p->owned, cap * sizeof *o);
        if (!o) {
            free(ptr);
            return -1;
        }
        p->owned = o;
        p->cap_owned = cap;
    }
    p->owned[p->n_owned++] = ptr;
    return 0;
}

/* Some drivers pad names with spaces. */
static void trim(char *s)
{
    size_t len = strlen(s), start = 0;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    while (start < len && isspace((unsigned char)s[start]))
        start++;
    memmove(s, s + start, len - start + 1);
}

static bw_code nomem(bw_error *err)
{
    return bw_error_set(err, BW_E_NOMEM, "out of memory while listing OpenCL devices");
}

/* A string a driver reported, as bwlab keeps it: s itself, or, where it
 * holds a control byte (a newline too), a copy owned by p with each such
 * byte written \xNN (bw_quote_append), so that no table, message, CSV
 * or JSON field carries a driver's raw control bytes to a terminal;
 * NULL when out of memory. */
static const char *shown_str(ocl_platforms *p, const char *s)
{
    const char *c = s;
    while (*c && (unsigned char)*c >= 0x20 && *c != 0x7f)
        c++;
    if (!*c)
        return s;
    bw_buf b = BW_BUF_INIT;
    bw_quote_append(&b, s, strlen(s), 0, 0);
    char *e = bw_buf_failed(&b) ? NULL : strdup(bw_buf_str(&b));
    bw_buf_free(&b);
    return e && own(p, e) == 0 ? e : NULL;
}

/* Copies s into memory owned by p; NULL when out of memory. */
static const char *own_str(ocl_platforms *p, const char *s)
{
    char *c = strdup(s);
    return c && own(p, c) == 0 ? c : NULL;
}

/* "CALL(QUERY) failed: NAME (STATUS)" */
static void failure(bw_buf *b, const char *call, const char *query, cl_int st)
{
    bw_buf_printf(b, "%s%s", b->len ? "; " : "", call);
    if (query)
        bw_buf_printf(b, "(%s)", query);
    bw_buf_printf(b, " failed: %s (%d)", ocl_error_name(st), (int)st);
}

/* A platform string; a failed query leaves "unknown" and its reason in why. */
static bw_code platform_str(ocl_platforms *p, cl_platform_id plat, cl_platform_info param,
                            const char *pname, const char **out, bw_buf *why, bw_error *err)
{
    size_t size = 0;
    cl_int st = clGetPlatformInfo(plat, param, 0, NULL, &size);
    char *s = st == CL_SUCCESS ? calloc(size + 1, 1) : NULL;
    if (st == CL_SUCCESS && (!s || own(p, s) != 0))
        return nomem(err);
    if (st == CL_SUCCESS && size)
        st = clGetPlatformInfo(plat, param, size, s, NULL);
    if (st != CL_SUCCESS) {
        failure(why, "clGetPlatformInfo", pname, st);
        *out = "unknown";
        return BW_OK;
    }
    trim(s);
    if (!(*out = shown_str(p, s)))
        return nomem(err);
    return BW_OK;
}

/* The queries of one device: required ones that fail make it unusable
 * (broken), optional ones are noted and read as 0 or "". */
typedef struct dquery {
    ocl_platforms *p;
    cl_device_id dev;
    bw_buf broken, notes;
    int nomem;
} dquery;

static void query_failed(dquery *q, const char *pname, int required, cl_int st)
{
    failure(required ? &q->broken : &q->notes, "clGetDeviceInfo", pname, st);
}

/* 0 when answered; otherwise *out is "" (never NULL). */
static int dstr(dquery *q, cl_device_info param, const char *pname, int required, const char **out)
{
    size_t size = 0;
    *out = "";
    cl_int st = clGetDeviceInfo(q->dev, param, 0, NULL, &size);
    char *s = st == CL_SUCCESS ? calloc(size + 1, 1) : NULL;
    if (st == CL_SUCCESS && (!s || own(q->p, s) != 0)) {
        q->nomem = 1;
        return -1;
    }
    if (st == CL_SUCCESS && size)
        st = clGetDeviceInfo(q->dev, param, size, s, NULL);
    if (st != CL_SUCCESS) {
        query_failed(q, pname, required, st);
        return -1;
    }
    trim(s);
    if (!(*out = shown_str(q->p, s))) {
        *out = "";
        q->nomem = 1;
        return -1;
    }
    return 0;
}

/* 0 when answered; otherwise *out is zeroed. */
static int dval(dquery *q, cl_device_info param, const char *pname, int required, void *out,
                size_t size)
{
    cl_int st = clGetDeviceInfo(q->dev, param, size, out, NULL);
    if (st != CL_SUCCESS) {
        memset(out, 0, size);
        query_failed(q, pname, required, st);
        return -1;
    }
    return 0;
}

/* Whole-word match in a space-separated extension list. */
static int has_extension(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *s = list; (s = strstr(s, ext)) != NULL; s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == '\0' || s[n] == ' '))
            return 1;
    return 0;
}

/* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE is a kernel property, so a
 * trivial kernel stands in for "any kernel"; 0 when anything fails (the
 * profile's stored value is used then). */
static size_t probe_wg_multiple(cl_platform_id plat, cl_device_id dev)
{
    static const char *src = "__kernel void bwlab_probe(__global uint *p)\n"
                             "{ p[get_global_id(0)] = 0u; }\n";
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0 };
    cl_int st;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    size_t multiple = 0;
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &st);
    if (!ctx || st != CL_SUCCESS)
        goto done;
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
    if (!prog || st != CL_SUCCESS)
        goto done;
    if (clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
        goto done;
    k = clCreateKernel(prog, "bwlab_probe", &st);
    if (!k || st != CL_SUCCESS)
        goto done;
    if (clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof multiple, &multiple, NULL) != CL_SUCCESS)
        multiple = 0;
done:
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (ctx)
        clReleaseContext(ctx);
    return multiple;
}

static const struct {
    const char *query;
    const char *cl_name;
} query_names[] = {
    { "warp_size_nv", "CL_DEVICE_WARP_SIZE_NV" },
    { "wavefront_width_amd", "CL_DEVICE_WAVEFRONT_WIDTH_AMD" },
    { "preferred_vector_width_float", "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT" },
    { "preferred_work_group_size_multiple", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" },
    { "global_mem_cacheline_size", "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE" },
    { "sub_group_sizes_intel", "CL_DEVICE_SUB_GROUP_SIZES_INTEL" },
};

static const char *query_cl_name(const char *query)
{
    for (size_t i = 0; i < sizeof query_names / sizeof query_names[0]; i++)
        if (!strcmp(query, query_names[i].query))
            return query_names[i].cl_name;
    return query;
}

/* The listed Intel sub-group size for a profile that stores `stored`
 * lanes: stored itself when listed, else the nearest listed size (the
 * larger on a tie); 0 when the device lists none. */
static uint64_t intel_lanes(const ocl_device_info *d, int stored)
{
    uint64_t best = 0, best_dist = UINT64_MAX;
    for (size_t i = 0; i < d->n_sub_group_sizes_intel; i++) {
        uint64_t v = d->sub_group_sizes_intel[i];
        uint64_t dist = v > (uint64_t)stored ? v - (uint64_t)stored : (uint64_t)stored - v;
        if (v > 0 && (dist < best_dist || (dist == best_dist && v > best))) {
            best = v;
            best_dist = dist;
        }
    }
    return best;
}

/* The device's answer to a profile's *_from query; 0 when it has none.
 * *wg caches the probe kernel's answer (SIZE_MAX: not built yet). */
static uint64_t query_value(const char *query, const ocl_device_info *d, int stored,
                            cl_platform_id plat, cl_device_id dev, size_t *wg)
{
    if (!strcmp(query, "sub_group_sizes_intel"))
        return intel_lanes(d, stored);
    if (!strcmp(query, "warp_size_nv"))
        return d->warp_size_nv;
    if (!strcmp(query, "wavefront_width_amd"))
        return d->wavefront_width_amd;
    if (!strcmp(query, "preferred_vector_width_float"))
        return d->preferred_vector_width_float;
    if (!strcmp(query, "global_mem_cacheline_size"))
        return d->global_cache_line_bytes;
    if (!strcmp(query, "preferred_work_group_size_multiple")) {
        if (*wg == SIZE_MAX)
            *wg = probe_wg_multiple(plat, dev);
        return *wg;
    }
    return 0;
}

static model_geometry with_fields(model_geometry g, unsigned mask, const uint64_t val[3])
{
    if (mask & 1u)
        g.lanes = (int)val[0];
    if (mask & 2u)
        g.sector = (int64_t)val[1];
    if (mask & 4u)
        g.line = (int64_t)val[2];
    return g;
}

static int popcount3(unsigned m)
{
    return (int)(m & 1u) + (int)((m >> 1) & 1u) + (int)((m >> 2) & 1u);
}

/* The profile's *_from queries, answered by the device: val[f] and the
 * bit f of the returned mask for each field (0 lanes, 1 sector, 2 line)
 * the device gave a usable value for. */
static unsigned query_fields(const model_profile *prof, const char *const from[3], ocl_device_info *d,
                             cl_platform_id plat, cl_device_id dev, uint64_t val[3])
{
    unsigned avail = 0;
    size_t wg = SIZE_MAX;
    for (int f = 0; f < 3; f++) {
        if (!from[f])
            continue;
        val[f] = query_value(from[f], d, f == 0 ? prof->geo.lanes : 0, plat, dev, &wg);
        uint64_t limit = f == 0 ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
        if (val[f] > 0 && val[f] <= limit)
            avail |= 1u << f;
    }
    return avail;
}

/* the largest set of device values that still makes a valid geometry;
 * sector and line usually come together, so try them jointly first */
static unsigned usable_fields(const model_geometry *geo, unsigned avail, const uint64_t val[3])
{
    for (int want = popcount3(avail); want >= 0; want--)
        for (unsigned m = 8; m-- > 0;) {
            if ((m & ~avail) || popcount3(m) != want)
                continue;
            model_geometry g = with_fields(*geo, m, val);
            if (model_geometry_check(&g, NULL) == BW_OK)
                return m;
        }
    return 0;
}

/* "; lanes 8 from CL_..." for each queried field: used, kept (with why
 * the device's value would not fit) or not available */
static void fields_why(bw_buf *b, const model_profile *prof, const char *const from[3], const uint64_t val[3],
                       unsigned avail, unsigned used)
{
    static const char *const field_names[3] = { "lanes", "sector", "line" };
    bw_error why_bad = BW_ERROR_INIT;
    if (avail != used) {
        model_geometry all = with_fields(prof->geo, avail, val);
        model_geometry_check(&all, &why_bad);
    }
    int done[3] = { 0, 0, 0 };
    const int64_t stored[3] = { prof->geo.lanes, prof->geo.sector, prof->geo.line };
    for (int f = 0; f < 3; f++) {
        if (!from[f] || done[f])
            continue;
        unsigned bit = 1u << f;
        /* sector and line from one query with one outcome read as one clause */
        int pair = f == 1 && from[2] && !strcmp(from[1], from[2]) &&
                   ((avail >> 1) & 1u) == ((avail >> 2) & 1u) &&
                   ((used >> 1) & 1u) == ((used >> 2) & 1u) && val[1] == val[2] &&
                   stored[1] == stored[2];
        const char *what = pair ? "sector and line" : field_names[f];
        const char *unit = f == 0 ? "" : " B";
        const char *cl = query_cl_name(from[f]);
        done[f] = 1;
        if (pair)
            done[2] = 1;
        bw_buf_puts(b, "; ");
        if (used & bit)
            bw_buf_printf(b, "%s %llu%s from %s", what, (unsigned long long)val[f], unit, cl);
        else if (avail & bit)
            bw_buf_printf(b, "%s kept at %lld%s (%llu%s from %s would not fit: %s)", what,
                          (long long)stored[f], unit, (unsigned long long)val[f], unit, cl,
                          bw_error_text(&why_bad));
        else
            bw_buf_printf(b, "%s kept at %lld%s (%s not available)", what,
                          (long long)stored[f], unit, cl);
    }
    bw_error_clear(&why_bad);
}

/* Intel compilers pick SIMD8, 16 or 32 per kernel: say which listed size
 * W is and whether a kernel can pin it (then d->reqd_sub_group_size) */
static void intel_sub_group_why(bw_buf *b, const model_profile *prof, ocl_device_info *d, unsigned used,
                                const uint64_t val[3])
{
    if (!prof->lanes_from || strcmp(prof->lanes_from, "sub_group_sizes_intel"))
        return;
    if (!(used & 1u)) {
        bw_buf_puts(b, "; the compiler picks the sub-group size per kernel");
        return;
    }
    bw_buf_puts(b, val[0] == (uint64_t)prof->geo.lanes ? " (the profile's W is among the listed sizes"
                                                      : " (the profile's W is not among the listed sizes");
    for (size_t i = 0; i < d->n_sub_group_sizes_intel; i++)
        bw_buf_printf(b, "%s%zu", i ? ", " : " ", d->sub_group_sizes_intel[i]);
    if (val[0] != (uint64_t)prof->geo.lanes)
        bw_buf_printf(b, "; %d would be, the nearest listed size is used", prof->geo.lanes);
    bw_buf_puts(b, ")");
    if (has_extension(d->extensions, "cl_intel_required_subgroup_size")) {
        d->reqd_sub_group_size = (uint32_t)val[0];
        bw_buf_puts(b, "; kernels can require it (cl_intel_required_subgroup_size)");
    }
}

/* Picks the profile, applies its *_from queries and writes profile_why. */
static bw_code pick_profile(ocl_platforms *p, ocl_device_info *d, cl_platform_id plat,
                            cl_device_id dev, const model_profiles *profiles, bw_error *err)
{
    char why[512];
    model_device_facts facts = { d->vendor, d->name, d->type_name, d->board_name };
    const model_profile *prof = model_profiles_match(profiles, &facts, why, sizeof why);
    bw_buf b = BW_BUF_INIT;
    if (prof) {
        bw_buf_puts(&b, why);
    } else {
        prof = model_profiles_at(profiles, model_profiles_count(profiles) - 1);
        bw_buf_printf(&b, "no profile matched, the last one ('%s') is used", prof->name);
    }
    const char *const from[3] = { prof->lanes_from, prof->sector_from, prof->line_from };
    uint64_t val[3] = { 0, 0, 0 };
    unsigned avail = query_fields(prof, from, d, plat, dev, val);
    unsigned used = usable_fields(&prof->geo, avail, val);
    d->geo = with_fields(prof->geo, used, val);
    fields_why(&b, prof, from, val, avail, used);
    intel_sub_group_why(&b, prof, d, used, val);

    /* copies: the caller may free the profiles before the platforms */
    char *s = bw_buf_steal(&b);
    if (!s || own(p, s) != 0)
        return nomem(err);
    d->profile_why = s;
    if (!(s = strdup(prof->name)) || own(p, s) != 0)
        return nomem(err);
    d->profile_name = s;
    return BW_OK;
}

#define REQ 1
#define OPT 0
#define DSTR(param, req, field) dstr(q, param, #param, req, &d->field)
#define DVAL(param, req, var) dval(q, param, #param, req, &(var), sizeof(var))

/* the strings and the type */
static void query_identity(dquery *q, ocl_device_info *d)
{
    cl_device_type type = 0;
    cl_uint u = 0;
    if (DSTR(CL_DEVICE_NAME, REQ, name) != 0)
        d->name = "(name unknown)";
    DSTR(CL_DEVICE_VENDOR, OPT, vendor);
    DSTR(CL_DRIVER_VERSION, OPT, driver_version);
    DSTR(CL_DEVICE_VERSION, OPT, device_version);
    /* OpenCL 1.0 has no CL_DEVICE_OPENCL_C_VERSION: its only language is
     * OpenCL C 1.0 */
    if (DSTR(CL_DEVICE_OPENCL_C_VERSION, OPT, opencl_c_version) != 0) {
        int v10 = !strncmp(d->device_version, "OpenCL 1.0", 10);
        d->opencl_c_version = v10 ? "OpenCL C 1.0" : "unknown";
        /* continues the failure just noted */
        bw_buf_puts(&q->notes, v10 ? ", so OpenCL C 1.0 (an OpenCL 1.0 device)"
                                   : ", so the OpenCL C version is unknown");
    }
    DSTR(CL_DEVICE_EXTENSIONS, OPT, extensions);
    DVAL(CL_DEVICE_VENDOR_ID, OPT, u);
    d->vendor_id = u;
    DVAL(CL_DEVICE_TYPE, REQ, type);
    /* a GPU may also carry CL_DEVICE_TYPE_DEFAULT, so test bits in order */
    if (type & CL_DEVICE_TYPE_GPU)
        d->type = OCL_TYPE_GPU, d->type_name = "gpu";
    else if (type & CL_DEVICE_TYPE_CPU)
        d->type = OCL_TYPE_CPU, d->type_name = "cpu";
    else if (type & CL_DEVICE_TYPE_ACCELERATOR)
        d->type = OCL_TYPE_ACCELERATOR, d->type_name = "accelerator";
    else
        d->type = OCL_TYPE_OTHER, d->type_name = "other";
}

/* the sizes and limits; a required one that is 0 makes the device broken */
static void query_limits(dquery *q, ocl_device_info *d)
{
    cl_uint u = 0;
    cl_ulong ul = 0;
    size_t sz = 0;
    cl_device_local_mem_type lmt = CL_NONE;
    DVAL(CL_DEVICE_MAX_COMPUTE_UNITS, OPT, u);
    d->compute_units = u;
    DVAL(CL_DEVICE_MAX_CLOCK_FREQUENCY, OPT, u);
    d->clock_mhz = u;
    if (DVAL(CL_DEVICE_GLOBAL_MEM_SIZE, REQ, ul) == 0 && ul == 0)
        bw_buf_printf(&q->broken, "%sCL_DEVICE_GLOBAL_MEM_SIZE is 0", q->broken.len ? "; " : "");
    d->global_mem_bytes = ul;
    if (DVAL(CL_DEVICE_MAX_MEM_ALLOC_SIZE, REQ, ul) == 0 && ul == 0)
        bw_buf_printf(&q->broken, "%sCL_DEVICE_MAX_MEM_ALLOC_SIZE is 0", q->broken.len ? "; " : "");
    d->max_alloc_bytes = ul;
    DVAL(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, OPT, ul);
    d->global_cache_bytes = ul;
    DVAL(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, OPT, u);
    d->global_cache_line_bytes = u;
    DVAL(CL_DEVICE_LOCAL_MEM_TYPE, OPT, lmt);
    d->local_mem_type = lmt == CL_LOCAL ? "local" : lmt == CL_GLOBAL ? "global" : "none";
    DVAL(CL_DEVICE_LOCAL_MEM_SIZE, OPT, ul);
    d->local_mem_bytes = ul;
    if (DVAL(CL_DEVICE_MAX_WORK_GROUP_SIZE, REQ, sz) == 0 && sz == 0)
        bw_buf_printf(&q->broken, "%sCL_DEVICE_MAX_WORK_GROUP_SIZE is 0", q->broken.len ? "; " : "");
    d->max_work_group_size = sz;
    DVAL(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, OPT, u);
    d->preferred_vector_width_float = u;
    DVAL(CL_DEVICE_ADDRESS_BITS, OPT, u);
    d->address_bits = u;
    DVAL(CL_DEVICE_PROFILING_TIMER_RESOLUTION, OPT, sz);
    d->timer_resolution_ns = sz;
    /* deprecated in OpenCL 2.0 and still answered by most drivers; a
     * driver that does not answer leaves it unknown, with no note */
    cl_bool unified = CL_FALSE;
    d->host_unified_memory =
        clGetDeviceInfo(q->dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) == CL_SUCCESS
            ? (unified ? 1 : 0)
            : -1;
    /* drivers that report a larger allocation than memory are known;
     * the runner sizes by both, so the device stays usable */
    if (d->max_alloc_bytes > d->global_mem_bytes && d->global_mem_bytes > 0)
        bw_buf_printf(&q->notes, "%sCL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu B) is above "
                      "CL_DEVICE_GLOBAL_MEM_SIZE (%llu B)", q->notes.len ? "; " : "",
                      (unsigned long long)d->max_alloc_bytes,
                      (unsigned long long)d->global_mem_bytes);
}
#undef DSTR
#undef DVAL
#undef REQ
#undef OPT

/* Vendor queries only where the extension is advertised; a driver that
 * advertises one and then fails the query is treated as not having it. */
static void query_vendor(dquery *q, ocl_device_info *d)
{
    cl_uint u = 0;
    cl_device_id dev = q->dev;
    if (has_extension(d->extensions, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(dev, CL_DEVICE_WARP_SIZE_NV, sizeof u, &u, NULL) == CL_SUCCESS)
        d->warp_size_nv = u;
    if (has_extension(d->extensions, "cl_amd_device_attribute_query")) {
        if (clGetDeviceInfo(dev, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof u, &u, NULL) == CL_SUCCESS)
            d->wavefront_width_amd = u;
        const char *board = NULL;
        bw_buf ignored = q->notes;
        q->notes = (bw_buf)BW_BUF_INIT;
        if (dstr(q, CL_DEVICE_BOARD_NAME_AMD, "CL_DEVICE_BOARD_NAME_AMD", 0, &board) == 0 && *board)
            d->board_name = board;
        bw_buf_free(&q->notes);
        q->notes = ignored;
    }
    if (has_extension(d->extensions, "cl_intel_required_subgroup_size")) {
        size_t bytes = 0;
        if (clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, NULL, &bytes) == CL_SUCCESS &&
            bytes >= sizeof(size_t)) {
            size_t *sizes = malloc(bytes);
            if (!sizes || own(q->p, sizes) != 0) {
                q->nomem = 1;
                return;
            }
            if (clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes, NULL) == CL_SUCCESS) {
                d->sub_group_sizes_intel = sizes;
                d->n_sub_group_sizes_intel = bytes / sizeof(size_t);
            }
        }
    }
}

/* Fills d from the device's queries (see ocl_device_info for what is
 * required) and picks the profile of a usable device. Fails only when out
 * of memory. */
static bw_code describe_device(ocl_platforms *p, ocl_device_info *d, cl_platform_id plat,
                               cl_device_id dev, const model_profiles *profiles, bw_error *err)
{
    dquery q = { p, dev, BW_BUF_INIT, BW_BUF_INIT, 0 };
    bw_code rc = BW_OK;
    query_identity(&q, d);
    query_limits(&q, d);
    query_vendor(&q, d);
    if (q.nomem)
        goto done;
    if (q.notes.len && !(d->query_notes = own_str(p, bw_buf_str(&q.notes)))) {
        q.nomem = 1;
        goto done;
    }
    if (q.broken.len) {
        d->usable = 0;
        if (!(d->broken_reason = own_str(p, bw_buf_str(&q.broken))))
            q.nomem = 1;
        goto done;
    }
    d->usable = 1;
    rc = pick_profile(p, d, plat, dev, profiles, err);
done:
    if (q.nomem || bw_buf_failed(&q.broken) || bw_buf_failed(&q.notes))
        rc = nomem(err);
    bw_buf_free(&q.broken);
    bw_buf_free(&q.notes);
    return rc;
}

/* PoCL keeps its kernel cache in POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl,
 * else ~/.cache/pocl, and lists no device when it cannot make it there: a
 * cache path through a file (or a directory it cannot write) reads as a
 * missing driver. Appends what is wrong with it to b and returns 1, or 0
 * when the path is usable or unknown. */
static int pocl_cache_problem(bw_buf *b)
{
    const char *pocl = getenv("POCL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *var = pocl && *pocl ? "POCL_CACHE_DIR" : xdg && *xdg ? "XDG_CACHE_HOME" : "HOME";
    char path[4096];
    if (pocl && *pocl)
        snprintf(path, sizeof path, "%s", pocl);
    else if (xdg && *xdg)
        snprintf(path, sizeof path, "%s/pocl", xdg);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.cache/pocl", home);
    else
        return 0;
    /* the path itself, or the first of its parents that exists */
    for (;;) {
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                bw_buf_printf(b, "PoCL's cache directory cannot be made: '%s' (from %s) is a file, not a directory; "
                                 "point %s (or POCL_CACHE_DIR) at a directory. ",
                              path, var, var);
                return 1;
            }
            if (access(path, W_OK | X_OK) != 0) {
                bw_buf_printf(b, "PoCL's cache directory cannot be made: '%s' (from %s) is not writable; point %s "
                                 "(or POCL_CACHE_DIR) at a writable directory. ",
                              path, var, var);
                return 1;
            }
            return 0;
        }
        char *slash = strrchr(path, '/');
        if (!slash || slash == path)
            return 0;
        *slash = '\0';
    }
}

/* The driver files the ICD loader reads (the *.icd in $OCL_ICD_VENDORS
 * when it names a folder, that file when it names one, none when it names
 * nothing; else in /etc/OpenCL/vendors), appended to b as "a.icd, b.icd";
 * how many. */
static size_t icd_files(bw_buf *b)
{
    const char *dir = getenv("OCL_ICD_VENDORS");
    struct stat st;
    if (dir && *dir) { /* the loader looks only there: a folder, or one driver's file */
        if (stat(dir, &st) != 0)
            return 0;
        if (!S_ISDIR(st.st_mode)) {
            bw_buf_puts(b, dir);
            return 1;
        }
    } else {
        dir = "/etc/OpenCL/vendors";
    }
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".icd"))
            bw_buf_printf(b, "%s%s/%s", n++ ? ", " : "", dir, e->d_name);
    }
    closedir(d);
    return n;
}

static bw_code no_platform(bw_error *err, const char *what);

/* clGetPlatformIDs found nothing: no driver installed (exit 3, which to
 * install), or installed drivers none of which started (said with their
 * files, and any address-space limit, the usual cause) */
static bw_code no_platform_found(bw_error *err)
{
    bw_buf icds = BW_BUF_INIT;
    if (icd_files(&icds) > 0 && !bw_buf_failed(&icds)) {
        /* drivers are installed: none of them started, which is not the
         * same advice (a memory limit is the usual cause) */
        struct rlimit rl;
        char limit[160] = "";
        if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            snprintf(limit, sizeof limit,
                     "; an address-space limit is set (ulimit -v %llu KiB): a driver may need more to start",
                     (unsigned long long)(rl.rlim_cur / 1024));
        bw_code rc = bw_error_set(err, BW_E_OPENCL,
                                  "the installed OpenCL drivers did not start (clGetPlatformIDs found no platform; "
                                  "driver files: %s)%s",
                                  bw_buf_str(&icds), limit);
        bw_buf_free(&icds);
        return rc;
    }
    bw_buf_free(&icds);
    return no_platform(err, "no OpenCL platform found: no OpenCL driver is installed");
}

static bw_code no_platform(bw_error *err, const char *what)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf cache = BW_BUF_INIT;
    if (pocl_cache_problem(&cache))
        bw_buf_printf(&b, "%s: %sOtherwise ", what, bw_buf_str(&cache));
    bw_buf_free(&cache);
    bw_buf_printf(&b,
                  "%s%sinstall an OpenCL driver (pocl-opencl-icd runs on any CPU; GPU vendors "
                  "ship their own: nvidia-opencl-icd, mesa-opencl-icd or rocm-opencl-runtime, "
                  "intel-opencl-icd)",
                  b.len ? "" : what, b.len ? "" : ": ");
    /* both ICD loaders (ocl-icd, Khronos) look where these point */
    static const char *const vars[] = { "OCL_ICD_VENDORS", "OCL_ICD_FILENAMES",
                                         "OPENCL_VENDOR_PATH" };
    int any = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v) {
            bw_buf_printf(&b, "; %s=%s is set", vars[i], v);
            any = 1;
        }
    }
    if (any)
        bw_buf_puts(&b, " (the loader looks for drivers only there)");
    bw_code rc = bw_buf_failed(&b) ? bw_error_set(err, BW_E_NOPLATFORM, "%s", what)
                                   : bw_error_set(err, BW_E_NOPLATFORM, "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

static int grow(ocl_platforms *p, size_t more)
{
    size_t n = p->n + more;
    ocl_device_info *devs = realloc(p->devs, n * sizeof *devs);
    if (!devs)
        return -1;
    p->devs = devs;
    cl_device_id *ids = realloc(p->dev_ids, n * sizeof *ids);
    if (!ids)
        return -1;
    p->dev_ids = ids;
    cl_platform_id *plats = realloc(p->plat_ids, n * sizeof *plats);
    if (!plats)
        return -1;
    p->plat_ids = plats;
    return 0;
}

/* Records why platform i is not fully described; takes the text of why. */
static bw_code add_problem(ocl_platforms *p, size_t i, const char *name, bw_buf *why,
                           bw_error *err)
{
    ocl_platform_problem *pp = realloc(p->problems, (p->n_problems + 1) * sizeof *pp);
    if (!pp)
        return nomem(err);
    p->problems = pp;
    const char *reason = bw_buf_failed(why) ? NULL : own_str(p, bw_buf_str(why));
    if (!reason)
        return nomem(err);
    pp[p->n_problems++] = (ocl_platform_problem){ i, name, reason };
    return BW_OK;
}

/* No usable device: what was found and why none works. */
static bw_code no_usable(const ocl_platforms *p, cl_uint np, bw_error *err)
{
    if (p->n == 0 && p->n_problems == 0)
        return no_platform(err, np == 1 ? "no OpenCL device found (1 platform, no device)"
                                        : "no OpenCL device found (no platform has a device)");
    bw_buf b = BW_BUF_INIT;
    bw_buf_puts(&b, "no usable OpenCL device (");
    const char *sep = "";
    for (size_t i = 0; i < p->n; i++, sep = "; ")
        bw_buf_printf(&b, "%sdevice %zu '%s': %s", sep, i, p->devs[i].name,
                      p->devs[i].broken_reason);
    for (size_t i = 0; i < p->n_problems; i++, sep = "; ")
        bw_buf_printf(&b, "%splatform %zu '%s': %s", sep, p->problems[i].platform_index,
                      p->problems[i].platform_name, p->problems[i].reason);
    bw_buf_puts(&b, ")");
    bw_code rc = bw_buf_failed(&b) ? nomem(err) : no_platform(err, bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

/* Devices with usable set. */
static size_t usable_device_count(const ocl_platforms *p)
{
    size_t n = 0;
    for (size_t i = 0; p && i < p->n; i++)
        n += p->devs[i].usable != 0;
    return n;
}

bw_code ocl_discover(const model_profiles *profiles, ocl_platforms **out, bw_error *err)
{
    *out = NULL;
    if (!profiles || model_profiles_count(profiles) == 0)
        return bw_error_set(err, BW_E_USAGE, "no device profiles to pick from");
    bw_code rc = BW_OK;
    cl_platform_id *plats = NULL;
    cl_device_id *ids = NULL;
    ocl_platforms *p = calloc(1, sizeof *p);
    if (!p)
        return nomem(err);

    cl_uint np = 0;
    cl_int st = clGetPlatformIDs(0, NULL, &np);
    if (st == CL_PLATFORM_NOT_FOUND_KHR || (st == CL_SUCCESS && np == 0)) {
        rc = no_platform_found(err);
        goto fail;
    }
    if (st != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clGetPlatformIDs", st, "the platform list");
        goto fail;
    }
    if (!(plats = calloc(np, sizeof *plats))) {
        rc = nomem(err);
        goto fail;
    }
    if ((st = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clGetPlatformIDs", st, "the platform list");
        goto fail;
    }

    for (cl_uint i = 0; i < np; i++) {
        const char *pname, *pvendor, *pversion;
        bw_buf why = BW_BUF_INIT;
        if ((rc = platform_str(p, plats[i], CL_PLATFORM_NAME, "CL_PLATFORM_NAME", &pname, &why,
                               err)) != BW_OK ||
            (rc = platform_str(p, plats[i], CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR", &pvendor,
                               &why, err)) != BW_OK ||
            (rc = platform_str(p, plats[i], CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION",
                               &pversion, &why, err)) != BW_OK) {
            bw_buf_free(&why);
            goto fail;
        }
        cl_uint nd = 0;
        st = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (st == CL_SUCCESS && nd > 0) {
            free(ids);
            if (!(ids = calloc(nd, sizeof *ids)) || grow(p, nd) != 0) {
                bw_buf_free(&why);
                rc = nomem(err);
                goto fail;
            }
            st = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, ids, NULL);
        }
        /* a platform without devices is not a problem; a failing one is */
        if (st != CL_SUCCESS && st != CL_DEVICE_NOT_FOUND)
            failure(&why, "clGetDeviceIDs", NULL, st);
        if (why.len && (rc = add_problem(p, i, pname, &why, err)) != BW_OK) {
            bw_buf_free(&why);
            goto fail;
        }
        bw_buf_free(&why);
        if (st != CL_SUCCESS)
            continue;
        for (cl_uint k = 0; k < nd; k++) {
            ocl_device_info *d = &p->devs[p->n];
            memset(d, 0, sizeof *d);
            d->index = p->n;
            d->platform_index = i;
            d->platform_name = pname;
            d->platform_vendor = pvendor;
            d->platform_version = pversion;
            p->dev_ids[p->n] = ids[k];
            p->plat_ids[p->n] = plats[i];
            p->n++; /* counted before describing, so a failure frees what it owns */
            if ((rc = describe_device(p, d, plats[i], ids[k], profiles, err)) != BW_OK)
                goto fail;
        }
    }
    if (usable_device_count(p) == 0) {
        rc = no_usable(p, np, err);
        goto fail;
    }
    free(plats);
    free(ids);
    *out = p;
    return BW_OK;
fail:
    free(plats);
    free(ids);
    ocl_platforms_free(p);
    return rc;
}

void ocl_platforms_free(ocl_platforms *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_owned; i++)
        free(p->owned[i]);
    free(p->owned);
    free(p->problems);
    free(p->devs);
    free(p->dev_ids);
    free(p->plat_ids);
    free(p);
}

size_t ocl_device_count(const ocl_platforms *p)
{
    return p ? p->n : 0;
}

const ocl_device_info *ocl_device_at(const ocl_platforms *p, size_t i)
{
    return p && i < p->n ? &p->devs[i] : NULL;
}

cl_device_id ocl_platforms_cl_device(const ocl_platforms *p, size_t i)
{
    return p->dev_ids[i];
}

cl_platform_id ocl_platforms_cl_platform(const ocl_platforms *p, size_t i)
{
    return p->plat_ids[i];
}

size_t ocl_platform_problem_count(const ocl_platforms *p)
{
    return p ? p->n_problems : 0;
}

const ocl_platform_problem *ocl_platform_problem_at(const ocl_platforms *p, size_t i)
{
    return p && i < p->n_problems ? &p->problems[i] : NULL;
}

size_t ocl_default_device(const ocl_platforms *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->devs[i].usable && p->devs[i].type == OCL_TYPE_GPU)
            return i;
    for (size_t i = 0; i < p->n; i++)
        if (p->devs[i].usable)
            return i;
    return 0;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] &&
               tolower((unsigned char)hay[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return 1;
    }
    return n == 0;
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static bw_code no_match(const ocl_platforms *p, const char *spec, bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    const char *sep = "";
    for (size_t i = 0; i < p->n; i++) {
        if (!p->devs[i].usable)
            continue;
        bw_buf_printf(&b, "%s%zu: %s (%s)", sep, i, p->devs[i].name, p->devs[i].type_name);
        sep = ", ";
    }
    bw_code rc = bw_error_set(err, BW_E_NODEVICE,
                              "no OpenCL device matches --device '%s' (devices: %s); see 'bwlab "
                              "devices'",
                              spec, bw_buf_failed(&b) ? "?" : bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

bw_code ocl_select(const ocl_platforms *p, const char *spec, size_t **idx, size_t *n,
                   bw_error *err)
{
    *idx = NULL;
    *n = 0;
    size_t *sel = malloc((p->n ? p->n : 1) * sizeof *sel);
    size_t count = 0;
    if (!sel)
        return nomem(err);
    if (!spec) {
        if (usable_device_count(p))
            sel[count++] = ocl_default_device(p);
    } else if (all_digits(spec)) {
        uint64_t v = 0;
        /* an index too large to parse is just as absent as one out of range */
        if (bw_parse_u64(spec, "--device", &v, NULL) == BW_OK && v < p->n) {
            if (!p->devs[v].usable) {
                free(sel);
                return bw_error_set(err, BW_E_NODEVICE,
                                    "--device '%s': device %zu '%s' is unusable: %s", spec,
                                    (size_t)v, p->devs[v].name, p->devs[v].broken_reason);
            }
            sel[count++] = (size_t)v;
        }
    } else if (!strcmp(spec, "all")) {
        for (size_t i = 0; i < p->n; i++)
            if (p->devs[i].usable)
                sel[count++] = i;
    } else if (!strcasecmp(spec, "cpu") || !strcasecmp(spec, "gpu")) {
        ocl_device_type t = tolower((unsigned char)spec[0]) == 'c' ? OCL_TYPE_CPU : OCL_TYPE_GPU;
        for (size_t i = 0; i < p->n; i++)
            if (p->devs[i].usable && p->devs[i].type == t)
                sel[count++] = i;
    } else if (*spec) {
        for (size_t i = 0; i < p->n; i++)
            if (p->devs[i].usable && contains_ci(p->devs[i].name, spec))
                sel[count++] = i;
    }
    if (count == 0) {
        free(sel);
        return no_match(p, spec ? spec : "", err);
    }
    *idx = sel;
    *n = count;
    return BW_OK;
}

bw_code ocl_device_override_profile(ocl_platforms *p, size_t i, const char *name, const char *why,
                                    const char *inferred, const model_geometry *geo, bw_error *err)
{
    if (!p || i >= p->n || !p->devs[i].usable)
        return bw_error_set(err, BW_E_USAGE, "device %zu has no profile to replace", i);
    char *n = strdup(name), *w = strdup(why), *f = strdup(inferred ? inferred : "");
    if (!f || own(p, f) != 0) {
        free(n);
        free(w);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    if (!n || !w) {
        free(n);
        free(w);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    if (own(p, n) != 0) { /* own frees what it cannot keep */
        free(w);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    if (own(p, w) != 0)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    p->devs[i].profile_name = n;
    p->devs[i].profile_why = w;
    p->devs[i].geo = *geo;
    p->devs[i].profile_inferred = f;
    return BW_OK;
}

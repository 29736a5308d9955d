#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "ocl_device.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bw_buf.h"
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

static bw_code platform_str(ocl_platforms *p, cl_platform_id plat, cl_platform_info param,
                            const char *pname, size_t pidx, const char **out, bw_error *err)
{
    size_t size = 0;
    cl_int st = clGetPlatformInfo(plat, param, 0, NULL, &size);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clGetPlatformInfo", st, "%s of platform %zu",
                             pname, pidx);
    char *s = calloc(size + 1, 1);
    if (!s || own(p, s) != 0)
        return nomem(err);
    if (size && (st = clGetPlatformInfo(plat, param, size, s, NULL)) != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clGetPlatformInfo", st, "%s of platform %zu",
                             pname, pidx);
    trim(s);
    *out = s;
    return BW_OK;
}

static bw_code device_str(ocl_platforms *p, cl_device_id dev, cl_device_info param,
                          const char *pname, size_t idx, const char **out, bw_error *err)
{
    size_t size = 0;
    cl_int st = clGetDeviceInfo(dev, param, 0, NULL, &size);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clGetDeviceInfo", st, "%s of device %zu", pname,
                             idx);
    char *s = calloc(size + 1, 1);
    if (!s || own(p, s) != 0)
        return nomem(err);
    if (size && (st = clGetDeviceInfo(dev, param, size, s, NULL)) != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clGetDeviceInfo", st, "%s of device %zu", pname,
                             idx);
    trim(s);
    *out = s;
    return BW_OK;
}

static bw_code device_val(cl_device_id dev, cl_device_info param, const char *pname, size_t idx,
                          void *out, size_t size, bw_error *err)
{
    cl_int st = clGetDeviceInfo(dev, param, size, out, NULL);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clGetDeviceInfo", st, "%s of device %zu", pname,
                             idx);
    return BW_OK;
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
};

static const char *query_cl_name(const char *query)
{
    for (size_t i = 0; i < sizeof query_names / sizeof query_names[0]; i++)
        if (!strcmp(query, query_names[i].query))
            return query_names[i].cl_name;
    return query;
}

/* The device's answer to a profile's *_from query; 0 when it has none.
 * *wg caches the probe kernel's answer (SIZE_MAX: not built yet). */
static uint64_t query_value(const char *query, const ocl_device_info *d, cl_platform_id plat,
                            cl_device_id dev, size_t *wg)
{
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

/* Picks the profile, applies its *_from queries and writes profile_why. */
static bw_code pick_profile(ocl_platforms *p, ocl_device_info *d, cl_platform_id plat,
                            cl_device_id dev, const model_profiles *profiles, bw_error *err)
{
    static const char *const field_names[3] = { "lanes", "sector", "line" };
    char why[512];
    model_device_facts facts = { d->vendor, d->name, d->type_name };
    const model_profile *prof = model_profiles_match(profiles, &facts, why, sizeof why);
    bw_buf b = BW_BUF_INIT;
    if (prof) {
        bw_buf_puts(&b, why);
    } else {
        prof = model_profiles_at(profiles, model_profiles_count(profiles) - 1);
        bw_buf_printf(&b, "no profile matched, the last one ('%s') is used", prof->name);
    }

    const char *from[3] = { prof->lanes_from, prof->sector_from, prof->line_from };
    uint64_t val[3] = { 0, 0, 0 };
    unsigned avail = 0;
    size_t wg = SIZE_MAX;
    for (int f = 0; f < 3; f++) {
        if (!from[f])
            continue;
        val[f] = query_value(from[f], d, plat, dev, &wg);
        uint64_t limit = f == 0 ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
        if (val[f] > 0 && val[f] <= limit)
            avail |= 1u << f;
    }
    /* the largest set of device values that still makes a valid geometry;
     * sector and line usually come together, so try them jointly first */
    unsigned used = 0;
    int found = 0;
    for (int want = popcount3(avail); want >= 0 && !found; want--) {
        for (unsigned m = 8; m-- > 0;) {
            if ((m & ~avail) || popcount3(m) != want)
                continue;
            model_geometry g = with_fields(prof->geo, m, val);
            if (model_geometry_check(&g, NULL) == BW_OK) {
                used = m;
                found = 1;
                break;
            }
        }
    }
    d->geo = with_fields(prof->geo, used, val);
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
        bw_buf_puts(&b, "; ");
        if (used & bit)
            bw_buf_printf(&b, "%s %llu%s from %s", what, (unsigned long long)val[f], unit, cl);
        else if (avail & bit)
            bw_buf_printf(&b, "%s kept at %lld%s (%llu%s from %s would not fit: %s)", what,
                          (long long)stored[f], unit, (unsigned long long)val[f], unit, cl,
                          bw_error_text(&why_bad));
        else
            bw_buf_printf(&b, "%s kept at %lld%s (%s not available)", what,
                          (long long)stored[f], unit, cl);
    }
    bw_error_clear(&why_bad);

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

#define DSTR(param, field)                                                                   \
    do {                                                                                     \
        if ((rc = device_str(p, dev, param, #param, idx, &d->field, err)) != BW_OK)          \
            return rc;                                                                       \
    } while (0)
#define DVAL(param, var)                                                                     \
    do {                                                                                     \
        if ((rc = device_val(dev, param, #param, idx, &(var), sizeof(var), err)) != BW_OK)   \
            return rc;                                                                       \
    } while (0)

static bw_code describe_device(ocl_platforms *p, ocl_device_info *d, cl_platform_id plat,
                               cl_device_id dev, const model_profiles *profiles, bw_error *err)
{
    bw_code rc;
    size_t idx = d->index;
    cl_device_type type = 0;
    cl_uint u = 0;
    cl_ulong ul = 0;
    size_t sz = 0;
    cl_device_local_mem_type lmt = CL_NONE;

    DSTR(CL_DEVICE_NAME, name);
    DSTR(CL_DEVICE_VENDOR, vendor);
    DSTR(CL_DRIVER_VERSION, driver_version);
    DSTR(CL_DEVICE_VERSION, device_version);
    DSTR(CL_DEVICE_OPENCL_C_VERSION, opencl_c_version);
    DSTR(CL_DEVICE_EXTENSIONS, extensions);
    DVAL(CL_DEVICE_VENDOR_ID, u);
    d->vendor_id = u;
    DVAL(CL_DEVICE_TYPE, type);
    /* a GPU may also carry CL_DEVICE_TYPE_DEFAULT, so test bits in order */
    if (type & CL_DEVICE_TYPE_GPU)
        d->type = OCL_TYPE_GPU, d->type_name = "gpu";
    else if (type & CL_DEVICE_TYPE_CPU)
        d->type = OCL_TYPE_CPU, d->type_name = "cpu";
    else if (type & CL_DEVICE_TYPE_ACCELERATOR)
        d->type = OCL_TYPE_ACCELERATOR, d->type_name = "accelerator";
    else
        d->type = OCL_TYPE_OTHER, d->type_name = "other";
    DVAL(CL_DEVICE_MAX_COMPUTE_UNITS, u);
    d->compute_units = u;
    DVAL(CL_DEVICE_MAX_CLOCK_FREQUENCY, u);
    d->clock_mhz = u;
    DVAL(CL_DEVICE_GLOBAL_MEM_SIZE, ul);
    d->global_mem_bytes = ul;
    DVAL(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ul);
    d->max_alloc_bytes = ul;
    DVAL(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, ul);
    d->global_cache_bytes = ul;
    DVAL(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, u);
    d->global_cache_line_bytes = u;
    DVAL(CL_DEVICE_LOCAL_MEM_TYPE, lmt);
    d->local_mem_type = lmt == CL_LOCAL ? "local" : lmt == CL_GLOBAL ? "global" : "none";
    DVAL(CL_DEVICE_LOCAL_MEM_SIZE, ul);
    d->local_mem_bytes = ul;
    DVAL(CL_DEVICE_MAX_WORK_GROUP_SIZE, sz);
    d->max_work_group_size = sz;
    DVAL(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, u);
    d->preferred_vector_width_float = u;
    DVAL(CL_DEVICE_ADDRESS_BITS, u);
    d->address_bits = u;
    DVAL(CL_DEVICE_PROFILING_TIMER_RESOLUTION, sz);
    d->timer_resolution_ns = sz;

    /* Vendor queries only where the extension is advertised; a driver that
     * advertises one and then fails the query is treated as not having it. */
    if (has_extension(d->extensions, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(dev, CL_DEVICE_WARP_SIZE_NV, sizeof u, &u, NULL) == CL_SUCCESS)
        d->warp_size_nv = u;
    if (has_extension(d->extensions, "cl_amd_device_attribute_query")) {
        if (clGetDeviceInfo(dev, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof u, &u, NULL) == CL_SUCCESS)
            d->wavefront_width_amd = u;
        const char *board = NULL;
        if (device_str(p, dev, CL_DEVICE_BOARD_NAME_AMD, "CL_DEVICE_BOARD_NAME_AMD", idx, &board,
                       NULL) == BW_OK && *board)
            d->board_name = board;
    }
    if (has_extension(d->extensions, "cl_intel_required_subgroup_size")) {
        size_t bytes = 0;
        if (clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, NULL, &bytes) == CL_SUCCESS &&
            bytes >= sizeof(size_t)) {
            size_t *sizes = malloc(bytes);
            if (!sizes || own(p, sizes) != 0)
                return nomem(err);
            if (clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes, NULL) ==
                CL_SUCCESS) {
                d->sub_group_sizes_intel = sizes;
                d->n_sub_group_sizes_intel = bytes / sizeof(size_t);
            }
        }
    }
    return pick_profile(p, d, plat, dev, profiles, err);
}

static bw_code no_platform(bw_error *err, const char *what)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf_printf(&b,
                  "%s: install an OpenCL driver (pocl-opencl-icd runs on any CPU; GPU vendors "
                  "ship their own: nvidia-opencl-icd, mesa-opencl-icd or rocm-opencl-runtime, "
                  "intel-opencl-icd)",
                  what);
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
        rc = no_platform(err, "no OpenCL platform found");
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
        if ((rc = platform_str(p, plats[i], CL_PLATFORM_NAME, "CL_PLATFORM_NAME", i, &pname,
                               err)) != BW_OK ||
            (rc = platform_str(p, plats[i], CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR", i, &pvendor,
                               err)) != BW_OK ||
            (rc = platform_str(p, plats[i], CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION", i,
                               &pversion, err)) != BW_OK)
            goto fail;
        cl_uint nd = 0;
        st = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (st == CL_DEVICE_NOT_FOUND || (st == CL_SUCCESS && nd == 0))
            continue;
        if (st != CL_SUCCESS) {
            rc = ocl_error_set(err, BW_E_OPENCL, "clGetDeviceIDs", st, "platform %u '%s'", i,
                               pname);
            goto fail;
        }
        free(ids);
        if (!(ids = calloc(nd, sizeof *ids)) || grow(p, nd) != 0) {
            rc = nomem(err);
            goto fail;
        }
        if ((st = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, ids, NULL)) != CL_SUCCESS) {
            rc = ocl_error_set(err, BW_E_OPENCL, "clGetDeviceIDs", st, "platform %u '%s'", i,
                               pname);
            goto fail;
        }
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
    if (p->n == 0) {
        rc = no_platform(err, np == 1 ? "no OpenCL device found (1 platform, no device)"
                                      : "no OpenCL device found (no platform has a device)");
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

size_t ocl_default_device(const ocl_platforms *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->devs[i].type == OCL_TYPE_GPU)
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
    for (size_t i = 0; i < p->n; i++)
        bw_buf_printf(&b, "%s%zu: %s (%s)", i ? ", " : "", i, p->devs[i].name,
                      p->devs[i].type_name);
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
        if (p->n)
            sel[count++] = ocl_default_device(p);
    } else if (all_digits(spec)) {
        uint64_t v = 0;
        /* an index too large to parse is just as absent as one out of range */
        if (bw_parse_u64(spec, "--device", &v, NULL) == BW_OK && v < p->n)
            sel[count++] = (size_t)v;
    } else if (!strcmp(spec, "all")) {
        for (size_t i = 0; i < p->n; i++)
            sel[count++] = i;
    } else if (!strcasecmp(spec, "cpu") || !strcasecmp(spec, "gpu")) {
        ocl_device_type t = tolower((unsigned char)spec[0]) == 'c' ? OCL_TYPE_CPU : OCL_TYPE_GPU;
        for (size_t i = 0; i < p->n; i++)
            if (p->devs[i].type == t)
                sel[count++] = i;
    } else if (*spec) {
        for (size_t i = 0; i < p->n; i++)
            if (contains_ci(p->devs[i].name, spec))
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

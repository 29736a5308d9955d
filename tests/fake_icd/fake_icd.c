/* A fake OpenCL driver for tests: the real ICD loader (ocl-icd) loads it
 * through OCL_ICD_VENDORS like any vendor driver, and it answers platform
 * and device queries from recorded tables instead of hardware, so that
 * discovery and profile matching can be tested for devices this machine
 * does not have, and for drivers that fail.
 *
 * BWLAB_FAKE_ICD_TABLE names one or more JSON tables (':'-separated); their
 * platforms are listed in order. A table is
 *   { "source": "...", "platforms": [ PLATFORM, ... ] }
 * PLATFORM: "CL_PLATFORM_NAME", "CL_PLATFORM_VENDOR", "CL_PLATFORM_VERSION",
 * ... (any CL_PLATFORM_* string query), "devices": [ DEVICE, ... ], and
 * optionally "clGetDeviceIDs": { "error": "CL_..." } to make the device list
 * fail. DEVICE: "CL_DEVICE_*" keys (see `queries` below) with a string,
 * an integer, an array of integers (CL_DEVICE_SUB_GROUP_SIZES_INTEL) or an
 * enum name ("CL_DEVICE_TYPE_GPU", "CL_LOCAL", "CL_READ_WRITE_CACHE").
 * A key whose value is { "error": "CL_..." } fails with that code; a
 * query with no key is unsupported (CL_INVALID_VALUE), as a driver
 * answers a query it does not know.
 *
 * Exported: clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress and
 * clGetPlatformInfo, the symbols the loader looks up in a driver. Everything else fails: clCreateContext returns NULL with
 * CL_DEVICE_NOT_AVAILABLE, and every other entry of the dispatch table
 * returns CL_INVALID_OPERATION or NULL; except on a device with
 * "proxy": "pocl", which runs kernels on PoCL ("proxy mode" below). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <dlfcn.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the vendor queries, in case the installed headers predate them */
#define FAKE_WARP_SIZE_NV 0x4003
#define FAKE_BOARD_NAME_AMD 0x4038
#define FAKE_WAVEFRONT_WIDTH_AMD 0x4043
#define FAKE_SUB_GROUP_SIZES_INTEL 0x4108
#define FAKE_PLATFORM_NOT_FOUND_KHR (-1001)
#define FAKE_PLATFORM_ICD_SUFFIX_KHR 0x0920

struct _cl_platform_id {
    struct _cl_icd_dispatch *dispatch; /* the loader reads this first */
    json_t *spec;
    cl_uint n_devices;
    struct _cl_device_id *devices;
};

struct _cl_device_id {
    struct _cl_icd_dispatch *dispatch;
    json_t *spec;
    cl_platform_id platform;
    cl_device_id real; /* proxy mode: PoCL's device behind this one, else NULL */
};

typedef enum kind { K_STR, K_UINT, K_ULONG, K_SIZE, K_SIZES, K_BITS, K_ENUM, K_BOOL } kind;

static const struct {
    const char *name;
    cl_uint param;
    kind kind;
} queries[] = {
    { "CL_DEVICE_TYPE", CL_DEVICE_TYPE, K_BITS },
    { "CL_DEVICE_VENDOR_ID", CL_DEVICE_VENDOR_ID, K_UINT },
    { "CL_DEVICE_MAX_COMPUTE_UNITS", CL_DEVICE_MAX_COMPUTE_UNITS, K_UINT },
    { "CL_DEVICE_MAX_WORK_GROUP_SIZE", CL_DEVICE_MAX_WORK_GROUP_SIZE, K_SIZE },
    { "CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT", CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, K_UINT },
    { "CL_DEVICE_MAX_CLOCK_FREQUENCY", CL_DEVICE_MAX_CLOCK_FREQUENCY, K_UINT },
    { "CL_DEVICE_ADDRESS_BITS", CL_DEVICE_ADDRESS_BITS, K_UINT },
    { "CL_DEVICE_MAX_MEM_ALLOC_SIZE", CL_DEVICE_MAX_MEM_ALLOC_SIZE, K_ULONG },
    { "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE", CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, K_ENUM },
    { "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE", CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, K_UINT },
    { "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE", CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, K_ULONG },
    { "CL_DEVICE_GLOBAL_MEM_SIZE", CL_DEVICE_GLOBAL_MEM_SIZE, K_ULONG },
    { "CL_DEVICE_LOCAL_MEM_TYPE", CL_DEVICE_LOCAL_MEM_TYPE, K_ENUM },
    { "CL_DEVICE_LOCAL_MEM_SIZE", CL_DEVICE_LOCAL_MEM_SIZE, K_ULONG },
    { "CL_DEVICE_PROFILING_TIMER_RESOLUTION", CL_DEVICE_PROFILING_TIMER_RESOLUTION, K_SIZE },
    { "CL_DEVICE_AVAILABLE", CL_DEVICE_AVAILABLE, K_BOOL },
    { "CL_DEVICE_HOST_UNIFIED_MEMORY", CL_DEVICE_HOST_UNIFIED_MEMORY, K_BOOL },
    { "CL_DEVICE_COMPILER_AVAILABLE", CL_DEVICE_COMPILER_AVAILABLE, K_BOOL },
    { "CL_DEVICE_NAME", CL_DEVICE_NAME, K_STR },
    { "CL_DEVICE_VENDOR", CL_DEVICE_VENDOR, K_STR },
    { "CL_DRIVER_VERSION", CL_DRIVER_VERSION, K_STR },
    { "CL_DEVICE_PROFILE", CL_DEVICE_PROFILE, K_STR },
    { "CL_DEVICE_VERSION", CL_DEVICE_VERSION, K_STR },
    { "CL_DEVICE_OPENCL_C_VERSION", CL_DEVICE_OPENCL_C_VERSION, K_STR },
    { "CL_DEVICE_EXTENSIONS", CL_DEVICE_EXTENSIONS, K_STR },
    { "CL_DEVICE_WARP_SIZE_NV", FAKE_WARP_SIZE_NV, K_UINT },
    { "CL_DEVICE_WAVEFRONT_WIDTH_AMD", FAKE_WAVEFRONT_WIDTH_AMD, K_UINT },
    { "CL_DEVICE_BOARD_NAME_AMD", FAKE_BOARD_NAME_AMD, K_STR },
    { "CL_DEVICE_SUB_GROUP_SIZES_INTEL", FAKE_SUB_GROUP_SIZES_INTEL, K_SIZES },
};

static const struct {
    const char *name;
    cl_uint param;
} platform_queries[] = {
    { "CL_PLATFORM_PROFILE", CL_PLATFORM_PROFILE },
    { "CL_PLATFORM_VERSION", CL_PLATFORM_VERSION },
    { "CL_PLATFORM_NAME", CL_PLATFORM_NAME },
    { "CL_PLATFORM_VENDOR", CL_PLATFORM_VENDOR },
    { "CL_PLATFORM_EXTENSIONS", CL_PLATFORM_EXTENSIONS },
    { "CL_PLATFORM_ICD_SUFFIX_KHR", FAKE_PLATFORM_ICD_SUFFIX_KHR },
};

static const struct {
    const char *name;
    cl_ulong value;
} symbols[] = {
    { "CL_DEVICE_TYPE_DEFAULT", CL_DEVICE_TYPE_DEFAULT },
    { "CL_DEVICE_TYPE_CPU", CL_DEVICE_TYPE_CPU },
    { "CL_DEVICE_TYPE_GPU", CL_DEVICE_TYPE_GPU },
    { "CL_DEVICE_TYPE_ACCELERATOR", CL_DEVICE_TYPE_ACCELERATOR },
    { "CL_DEVICE_TYPE_CUSTOM", CL_DEVICE_TYPE_CUSTOM },
    { "CL_NONE", CL_NONE },
    { "CL_LOCAL", CL_LOCAL },
    { "CL_GLOBAL", CL_GLOBAL },
    { "CL_READ_ONLY_CACHE", CL_READ_ONLY_CACHE },
    { "CL_READ_WRITE_CACHE", CL_READ_WRITE_CACHE },
};

static const struct {
    const char *name;
    cl_int code;
} errors[] = {
    { "CL_DEVICE_NOT_FOUND", CL_DEVICE_NOT_FOUND },
    { "CL_DEVICE_NOT_AVAILABLE", CL_DEVICE_NOT_AVAILABLE },
    { "CL_OUT_OF_RESOURCES", CL_OUT_OF_RESOURCES },
    { "CL_OUT_OF_HOST_MEMORY", CL_OUT_OF_HOST_MEMORY },
    { "CL_INVALID_VALUE", CL_INVALID_VALUE },
    { "CL_INVALID_PLATFORM", CL_INVALID_PLATFORM },
    { "CL_INVALID_DEVICE", CL_INVALID_DEVICE },
    { "CL_INVALID_DEVICE_TYPE", CL_INVALID_DEVICE_TYPE },
    { "CL_INVALID_OPERATION", CL_INVALID_OPERATION },
    { "CL_PLATFORM_NOT_FOUND_KHR", FAKE_PLATFORM_NOT_FOUND_KHR },
    { "CL_INVALID_QUEUE_PROPERTIES", CL_INVALID_QUEUE_PROPERTIES },
    { "CL_INVALID_WORK_GROUP_SIZE", CL_INVALID_WORK_GROUP_SIZE },
    { "CL_MEM_OBJECT_ALLOCATION_FAILURE", CL_MEM_OBJECT_ALLOCATION_FAILURE },
};

static struct _cl_icd_dispatch dispatch;
static struct _cl_icd_dispatch *pocl; /* proxy mode: PoCL's own table */
static void bind_proxies(void);
static json_t *tables[32]; /* kept, so that the platforms' specs stay reachable */
static size_t n_tables;
static struct _cl_platform_id *platforms;
static cl_uint n_platforms;
static int loaded;

/* A table that cannot be read is a broken test setup: say so on stderr,
 * since the loader only sees "no platform". */
static void complain(const char *path, const char *what)
{
    fprintf(stderr, "bwlab fake ICD: %s: %s\n", path, what);
}

/* An integer, or an error name when the value is {"error": NAME}; other
 * shapes are a broken table and fail with CL_INVALID_OPERATION. */
static cl_int error_of(json_t *v)
{
    json_t *e = json_object_get(v, "error");
    if (json_is_integer(e))
        return (cl_int)json_integer_value(e);
    if (json_is_string(e))
        for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
            if (!strcmp(errors[i].name, json_string_value(e)))
                return errors[i].code;
    return CL_INVALID_OPERATION;
}

static int symbol(const char *name, cl_ulong *out)
{
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (!strcmp(symbols[i].name, name)) {
            *out = symbols[i].value;
            return 0;
        }
    return -1;
}

static int add_platforms(json_t *root, const char *path)
{
    json_t *arr = json_object_get(root, "platforms");
    if (!json_is_array(arr)) {
        complain(path, "no \"platforms\" array");
        return -1;
    }
    size_t n = json_array_size(arr);
    struct _cl_platform_id *p = realloc(platforms, (n_platforms + n) * sizeof *p);
    if (!p)
        return -1;
    platforms = p;
    for (size_t i = 0; i < n; i++) {
        struct _cl_platform_id *pl = &platforms[n_platforms];
        json_t *devs = json_object_get(json_array_get(arr, i), "devices");
        size_t nd = json_array_size(devs);
        pl->dispatch = &dispatch;
        pl->spec = json_array_get(arr, i);
        pl->n_devices = (cl_uint)nd;
        pl->devices = calloc(nd ? nd : 1, sizeof *pl->devices);
        if (!pl->devices)
            return -1;
        n_platforms++;
        for (size_t k = 0; k < nd; k++)
            pl->devices[k] = (struct _cl_device_id){ &dispatch, json_array_get(devs, k), pl, NULL };
    }
    return 0;
}

/* Reads every table once; the tables live as long as the process. */
static void load(void)
{
    if (loaded)
        return;
    loaded = 1;
    const char *list = getenv("BWLAB_FAKE_ICD_TABLE");
    if (!list || !*list) {
        complain("BWLAB_FAKE_ICD_TABLE", "not set");
        return;
    }
    char *copy = strdup(list);
    for (char *save = NULL, *path = copy ? strtok_r(copy, ":", &save) : NULL; path;
         path = strtok_r(NULL, ":", &save)) {
        json_error_t e;
        json_t *root = json_load_file(path, 0, &e);
        if (!root) {
            complain(path, e.text);
            continue;
        }
        if (n_tables == sizeof tables / sizeof tables[0]) {
            complain(path, "too many tables");
            json_decref(root);
            continue;
        }
        tables[n_tables++] = root;
        add_platforms(root, path);
    }
    free(copy);
    bind_proxies();
}

static cl_int answer(const void *data, size_t size, size_t value_size, void *value,
                     size_t *size_ret)
{
    if (value && value_size < size)
        return CL_INVALID_VALUE;
    if (value)
        memcpy(value, data, size);
    if (size_ret)
        *size_ret = size;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL fake_GetPlatformIDs(cl_uint n, cl_platform_id *out, cl_uint *count)
{
    load();
    if ((n == 0 && out) || (!out && !count))
        return CL_INVALID_VALUE;
    if (count)
        *count = n_platforms;
    for (cl_uint i = 0; out && i < n && i < n_platforms; i++)
        out[i] = &platforms[i];
    return n_platforms ? CL_SUCCESS : FAKE_PLATFORM_NOT_FOUND_KHR;
}

static cl_int CL_API_CALL fake_GetPlatformInfo(cl_platform_id p, cl_platform_info param,
                                               size_t size, void *value, size_t *size_ret)
{
    if (!p)
        return CL_INVALID_PLATFORM;
    const char *key = NULL;
    for (size_t i = 0; i < sizeof platform_queries / sizeof platform_queries[0]; i++)
        if (platform_queries[i].param == param)
            key = platform_queries[i].name;
    if (!key)
        return CL_INVALID_VALUE;
    json_t *v = json_object_get(p->spec, key);
    const char *s = json_string_value(v);
    if (json_is_object(v))
        return error_of(v);
    if (!s) /* the loader needs these two whatever the table says */
        s = param == FAKE_PLATFORM_ICD_SUFFIX_KHR ? "bwfake"
            : param == CL_PLATFORM_EXTENSIONS   ? "cl_khr_icd"
            : param == CL_PLATFORM_PROFILE      ? "FULL_PROFILE"
                                                : NULL;
    if (!s)
        return CL_INVALID_VALUE;
    return answer(s, strlen(s) + 1, size, value, size_ret);
}

static cl_ulong type_of(const struct _cl_device_id *d)
{
    json_t *v = json_object_get(d->spec, "CL_DEVICE_TYPE");
    cl_ulong t = 0;
    if (json_is_string(v))
        symbol(json_string_value(v), &t);
    else if (json_is_integer(v))
        t = (cl_ulong)json_integer_value(v);
    return t;
}

static cl_int CL_API_CALL fake_GetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                                            cl_device_id *out, cl_uint *count)
{
    if (!p)
        return CL_INVALID_PLATFORM;
    json_t *fail = json_object_get(p->spec, "clGetDeviceIDs");
    if (fail)
        return error_of(fail);
    if ((n == 0 && out) || (!out && !count))
        return CL_INVALID_VALUE;
    cl_uint found = 0;
    for (cl_uint i = 0; i < p->n_devices; i++) {
        cl_ulong t = type_of(&p->devices[i]);
        int take = type == CL_DEVICE_TYPE_ALL || (t & type) ||
                   (type == CL_DEVICE_TYPE_DEFAULT && found == 0);
        if (!take)
            continue;
        if (out && found < n)
            out[found] = &p->devices[i];
        found++;
    }
    if (count)
        *count = found;
    return found ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

static cl_int CL_API_CALL fake_GetDeviceInfo(cl_device_id d, cl_device_info param, size_t size,
                                             void *value, size_t *size_ret)
{
    if (!d)
        return CL_INVALID_DEVICE;
    if (param == CL_DEVICE_PLATFORM)
        return answer(&d->platform, sizeof d->platform, size, value, size_ret);
    size_t q = 0;
    while (q < sizeof queries / sizeof queries[0] && queries[q].param != param)
        q++;
    json_t *v = q < sizeof queries / sizeof queries[0] ? json_object_get(d->spec, queries[q].name)
                                                       : NULL;
    if (!v && d->real) /* proxy: what the table does not say, PoCL does */
        return pocl->clGetDeviceInfo(d->real, param, size, value, size_ret);
    if (!v)
        return CL_INVALID_VALUE; /* unsupported, as a driver that does not know it */
    if (json_is_object(v))
        return error_of(v);
    cl_ulong sym = 0;
    switch (queries[q].kind) {
    case K_STR:
        if (!json_is_string(v))
            return CL_INVALID_OPERATION;
        return answer(json_string_value(v), json_string_length(v) + 1, size, value, size_ret);
    case K_UINT: {
        cl_uint x = (cl_uint)json_integer_value(v);
        return json_is_integer(v) ? answer(&x, sizeof x, size, value, size_ret)
                                  : CL_INVALID_OPERATION;
    }
    case K_BOOL: {
        cl_bool x = json_is_true(v) ? CL_TRUE : CL_FALSE;
        return json_is_boolean(v) ? answer(&x, sizeof x, size, value, size_ret)
                                  : CL_INVALID_OPERATION;
    }
    case K_ULONG: {
        cl_ulong x = (cl_ulong)json_integer_value(v);
        return json_is_integer(v) ? answer(&x, sizeof x, size, value, size_ret)
                                  : CL_INVALID_OPERATION;
    }
    case K_SIZE: {
        size_t x = (size_t)json_integer_value(v);
        return json_is_integer(v) ? answer(&x, sizeof x, size, value, size_ret)
                                  : CL_INVALID_OPERATION;
    }
    case K_SIZES: {
        size_t n = json_array_size(v), x[64];
        if (!json_is_array(v) || n > 64)
            return CL_INVALID_OPERATION;
        for (size_t i = 0; i < n; i++)
            x[i] = (size_t)json_integer_value(json_array_get(v, i));
        return answer(x, n * sizeof x[0], size, value, size_ret);
    }
    case K_BITS: {
        cl_ulong x = type_of(d);
        return x ? answer(&x, sizeof x, size, value, size_ret) : CL_INVALID_OPERATION;
    }
    case K_ENUM: {
        if (!json_is_string(v) || symbol(json_string_value(v), &sym) != 0)
            return CL_INVALID_OPERATION;
        cl_uint x = (cl_uint)sym;
        return answer(&x, sizeof x, size, value, size_ret);
    }
    }
    return CL_INVALID_OPERATION;
}


/* ---- proxy mode: a table's device that runs on PoCL ----
 *
 * A DEVICE with "proxy": "pocl" is PoCL's first device (the driver named
 * by /etc/OpenCL/vendors/pocl.icd, or $BWLAB_FAKE_ICD_POCL) in disguise:
 * its queries answer from the table where the table has the key and from
 * PoCL otherwise, and contexts, queues, programs and kernels are PoCL's
 * objects whose dispatch pointer is turned to `proxy`, a copy of PoCL's
 * table in which the calls below are replaced (device handles translated,
 * and the scenario's failures injected). Memory objects and events keep
 * PoCL's own table: nothing of theirs is intercepted. Scenario keys:
 *   "refuse_profiling": true  a queue with CL_QUEUE_PROFILING_ENABLE fails
 *                             with CL_INVALID_QUEUE_PROPERTIES (-35)
 *   "fail_launch_at": N       a launch whose work-group has N or more
 *                             work-items fails with CL_OUT_OF_RESOURCES (-5)
 *   "fail_alloc_above": BYTES clCreateBuffer succeeds at any size, but a
 *                             write or fill of a buffer of more than BYTES,
 *                             and a launch of a kernel with such a buffer
 *                             as an argument, fail with
 *                             CL_MEM_OBJECT_ALLOCATION_FAILURE (-4), as a
 *                             lazily allocating driver answers the first
 *                             use it cannot commit */
typedef void (*fake_fn)(void);
static cl_int CL_API_CALL fake_fail(void);

static struct _cl_icd_dispatch proxy;
static cl_platform_id pocl_platform;
static cl_device_id pocl_device;

/* PoCL's objects that have been turned to `proxy`, and the fake device
 * each serves (for its scenario) */
#define PROXY_MAX 4096
typedef struct proxied {
    void *obj;
    struct _cl_device_id *dev;
    unsigned long big_args; /* a kernel's: the arguments that are buffers over "fail_alloc_above" */
} proxied;
static proxied owned[PROXY_MAX];
static size_t n_owned;

static void *adopt(void *obj, struct _cl_device_id *dev)
{
    if (!obj)
        return NULL;
    *(struct _cl_icd_dispatch **)obj = &proxy;
    for (size_t i = 0; i < n_owned; i++)
        if (owned[i].obj == obj || !owned[i].obj) {
            owned[i] = (proxied){ obj, dev, 0 };
            return obj;
        }
    if (n_owned < PROXY_MAX)
        owned[n_owned++] = (proxied){ obj, dev, 0 };
    return obj;
}

static proxied *entry_of(const void *obj)
{
    for (size_t i = 0; i < n_owned; i++)
        if (owned[i].obj == obj)
            return &owned[i];
    return NULL;
}

static struct _cl_device_id *owner(const void *obj)
{
    proxied *e = entry_of(obj);
    return e ? e->dev : NULL;
}

/* The buffers of proxied contexts and their sizes, so that a kernel
 * argument can be recognised as one without asking PoCL about a pointer
 * that may be no buffer (memory objects keep PoCL's table: their release
 * is not seen, and an entry stays until its address is reused) */
typedef struct buffer_size {
    cl_mem mem;
    size_t bytes;
} buffer_size;
static buffer_size buffers[PROXY_MAX];
static size_t n_buffers;

static void note_buffer(cl_mem mem, size_t bytes)
{
    size_t i = 0;
    while (i < n_buffers && buffers[i].mem != mem)
        i++;
    if (i == n_buffers && n_buffers < PROXY_MAX)
        n_buffers++;
    if (i < n_buffers)
        buffers[i] = (buffer_size){ mem, bytes };
}

/* the size of a buffer of a proxied context, or 0 */
static size_t buffer_bytes(cl_mem mem)
{
    for (size_t i = 0; i < n_buffers; i++)
        if (buffers[i].mem == mem)
            return buffers[i].bytes;
    return 0;
}

static int is_fake_device(cl_device_id d)
{
    for (cl_uint p = 0; p < n_platforms; p++)
        if (d >= platforms[p].devices && d < platforms[p].devices + platforms[p].n_devices)
            return 1;
    return 0;
}

/* a fake proxy device's PoCL device; anything else as it is */
static cl_device_id real_of(cl_device_id d)
{
    return d && is_fake_device(d) && d->real ? d->real : d;
}

#define REAL_DEVICES(n, devs, out)                                                         \
    cl_device_id out[16];                                                                  \
    if ((n) > 16)                                                                          \
        return CL_INVALID_VALUE;                                                           \
    for (cl_uint i_ = 0; devs && i_ < (n); i_++)                                           \
        out[i_] = real_of((devs)[i_]);

static int pocl_open(void)
{
    if (pocl)
        return 0;
    const char *lib = getenv("BWLAB_FAKE_ICD_POCL");
    char line[1024] = "";
    if (!lib || !*lib) {
        FILE *f = fopen("/etc/OpenCL/vendors/pocl.icd", "r");
        if (!f || !fgets(line, sizeof line, f)) {
            if (f)
                fclose(f);
            complain("/etc/OpenCL/vendors/pocl.icd", "cannot be read: no PoCL to proxy");
            return -1;
        }
        fclose(f);
        line[strcspn(line, "\r\n")] = '\0';
        lib = line;
    }
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        complain(lib, dlerror());
        return -1;
    }
    /* as the loader finds it: through clGetExtensionFunctionAddress */
    cl_int(CL_API_CALL * get)(cl_uint, cl_platform_id *, cl_uint *) = NULL;
    void *(CL_API_CALL * ext)(const char *) = NULL;
    void *sym = dlsym(h, "clGetExtensionFunctionAddress");
    memcpy(&ext, &sym, sizeof ext);
    sym = ext ? ext("clIcdGetPlatformIDsKHR") : NULL;
    memcpy(&get, &sym, sizeof get);
    cl_uint n = 0;
    if (!get || get(1, &pocl_platform, &n) != CL_SUCCESS || n == 0) {
        complain(lib, "has no platform");
        return -1;
    }
    struct _cl_icd_dispatch *t = *(struct _cl_icd_dispatch **)pocl_platform;
    if (t->clGetDeviceIDs(pocl_platform, CL_DEVICE_TYPE_ALL, 1, &pocl_device, NULL) != CL_SUCCESS) {
        complain(lib, "has no device");
        return -1;
    }
    pocl = t;
    return 0;
}

static json_int_t scenario(const struct _cl_device_id *d, const char *key)
{
    json_t *v = d ? json_object_get(d->spec, key) : NULL;
    return json_is_true(v) ? 1 : json_is_integer(v) ? json_integer_value(v) : 0;
}

static cl_context CL_API_CALL proxy_CreateContext(const cl_context_properties *props, cl_uint n,
                                                  const cl_device_id *devs,
                                                  void(CL_CALLBACK *notify)(const char *,
                                                                            const void *, size_t,
                                                                            void *),
                                                  void *user, cl_int *errcode)
{
    cl_context_properties p[32];
    size_t k = 0;
    for (; props && props[k] && k + 2 < 32; k += 2) {
        p[k] = props[k];
        p[k + 1] = props[k] == CL_CONTEXT_PLATFORM ? (cl_context_properties)pocl_platform
                                                   : props[k + 1];
    }
    p[k] = 0;
    cl_device_id real[16];
    if (n == 0 || n > 16) {
        if (errcode)
            *errcode = CL_INVALID_VALUE;
        return NULL;
    }
    for (cl_uint i = 0; i < n; i++)
        real[i] = real_of(devs[i]);
    cl_context c = pocl->clCreateContext(p, n, real, notify, user, errcode);
    return adopt(c, devs[0]);
}

static cl_command_queue CL_API_CALL proxy_CreateCommandQueue(cl_context c, cl_device_id d,
                                                             cl_command_queue_properties props,
                                                             cl_int *errcode)
{
    struct _cl_device_id *fd = owner(c);
    if ((props & CL_QUEUE_PROFILING_ENABLE) && scenario(fd, "refuse_profiling")) {
        if (errcode)
            *errcode = CL_INVALID_QUEUE_PROPERTIES;
        return NULL;
    }
    return adopt(pocl->clCreateCommandQueue(c, real_of(d), props, errcode), fd);
}

static cl_command_queue CL_API_CALL proxy_CreateCommandQueueWithProperties(
    cl_context c, cl_device_id d, const cl_queue_properties *props, cl_int *errcode)
{
    struct _cl_device_id *fd = owner(c);
    for (size_t k = 0; props && props[k]; k += 2)
        if (props[k] == CL_QUEUE_PROPERTIES && (props[k + 1] & CL_QUEUE_PROFILING_ENABLE) &&
            scenario(fd, "refuse_profiling")) {
            if (errcode)
                *errcode = CL_INVALID_QUEUE_PROPERTIES;
            return NULL;
        }
    return adopt(pocl->clCreateCommandQueueWithProperties(c, real_of(d), props, errcode), fd);
}

static cl_program CL_API_CALL proxy_CreateProgramWithSource(cl_context c, cl_uint n,
                                                            const char **src, const size_t *len,
                                                            cl_int *errcode)
{
    return adopt(pocl->clCreateProgramWithSource(c, n, src, len, errcode), owner(c));
}

static cl_int CL_API_CALL proxy_BuildProgram(cl_program p, cl_uint n, const cl_device_id *devs,
                                             const char *opts,
                                             void(CL_CALLBACK *notify)(cl_program, void *),
                                             void *user)
{
    REAL_DEVICES(n, devs, real)
    return pocl->clBuildProgram(p, n, devs ? real : NULL, opts, notify, user);
}

static cl_int CL_API_CALL proxy_GetProgramBuildInfo(cl_program p, cl_device_id d,
                                                    cl_program_build_info param, size_t size,
                                                    void *value, size_t *size_ret)
{
    return pocl->clGetProgramBuildInfo(p, real_of(d), param, size, value, size_ret);
}

static cl_kernel CL_API_CALL proxy_CreateKernel(cl_program p, const char *name, cl_int *errcode)
{
    return adopt(pocl->clCreateKernel(p, name, errcode), owner(p));
}

static cl_int CL_API_CALL proxy_GetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
                                                       cl_kernel_work_group_info param,
                                                       size_t size, void *value, size_t *size_ret)
{
    return pocl->clGetKernelWorkGroupInfo(k, real_of(d), param, size, value, size_ret);
}

static cl_mem CL_API_CALL proxy_CreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host,
                                             cl_int *errcode)
{
    cl_mem m = pocl->clCreateBuffer(c, flags, size, host, errcode);
    if (m)
        note_buffer(m, size);
    return m;
}

/* a sub-buffer is a buffer of its region's size to "fail_alloc_above" */
static cl_mem CL_API_CALL proxy_CreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                                const void *info, cl_int *errcode)
{
    cl_mem m = pocl->clCreateSubBuffer(parent, flags, type, info, errcode);
    if (m && type == CL_BUFFER_CREATE_TYPE_REGION)
        note_buffer(m, ((const cl_buffer_region *)info)->size);
    return m;
}

static cl_int CL_API_CALL proxy_SetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    proxied *e = entry_of(k);
    json_int_t above = scenario(e ? e->dev : NULL, "fail_alloc_above");
    if (e && index < 8 * sizeof e->big_args) {
        cl_mem m = NULL;
        if (size == sizeof m && value)
            memcpy(&m, value, sizeof m);
        size_t bytes = m ? buffer_bytes(m) : 0;
        if (above > 0 && (json_int_t)bytes > above)
            e->big_args |= 1ul << index;
        else
            e->big_args &= ~(1ul << index);
    }
    return pocl->clSetKernelArg(k, index, size, value);
}

static cl_int CL_API_CALL proxy_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                     const size_t *offset, const size_t *global,
                                                     const size_t *local, cl_uint n_wait,
                                                     const cl_event *wait, cl_event *ev)
{
    proxied *e = entry_of(k);
    if (e && e->big_args) /* a buffer the device cannot commit ("fail_alloc_above") */
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    json_int_t at = scenario(owner(q), "fail_launch_at");
    if (at > 0 && local) {
        size_t items = 1;
        for (cl_uint i = 0; i < dim; i++)
            items *= local[i];
        if ((json_int_t)items >= at)
            return CL_OUT_OF_RESOURCES;
    }
    return pocl->clEnqueueNDRangeKernel(q, k, dim, offset, global, local, n_wait, wait, ev);
}

/* whether queue q's device cannot commit buffer b ("fail_alloc_above") */
static int too_big(cl_command_queue q, cl_mem b)
{
    json_int_t above = scenario(owner(q), "fail_alloc_above");
    size_t bytes = 0;
    return above > 0 && pocl->clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) == CL_SUCCESS &&
           (json_int_t)bytes > above;
}

static cl_int CL_API_CALL proxy_EnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                    size_t offset, size_t size, const void *ptr,
                                                    cl_uint n_wait, const cl_event *wait, cl_event *ev)
{
    if (too_big(q, b))
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return pocl->clEnqueueWriteBuffer(q, b, blocking, offset, size, ptr, n_wait, wait, ev);
}

static cl_int CL_API_CALL proxy_EnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pattern,
                                                   size_t pattern_size, size_t offset, size_t size,
                                                   cl_uint n_wait, const cl_event *wait, cl_event *ev)
{
    if (too_big(q, b))
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return pocl->clEnqueueFillBuffer(q, b, pattern, pattern_size, offset, size, n_wait, wait, ev);
}

static void fill_proxy(void)
{
    proxy = *pocl;
    fake_fn *slot = (fake_fn *)(void *)&proxy;
    for (size_t i = 0; i < sizeof proxy / sizeof(fake_fn); i++)
        if (!slot[i]) /* an entry PoCL leaves empty fails instead of crashing */
            slot[i] = (fake_fn)fake_fail;
    proxy.clCreateCommandQueue = proxy_CreateCommandQueue;
    if (pocl->clCreateCommandQueueWithProperties)
        proxy.clCreateCommandQueueWithProperties = proxy_CreateCommandQueueWithProperties;
    proxy.clCreateProgramWithSource = proxy_CreateProgramWithSource;
    proxy.clBuildProgram = proxy_BuildProgram;
    proxy.clGetProgramBuildInfo = proxy_GetProgramBuildInfo;
    proxy.clCreateKernel = proxy_CreateKernel;
    proxy.clGetKernelWorkGroupInfo = proxy_GetKernelWorkGroupInfo;
    proxy.clEnqueueNDRangeKernel = proxy_EnqueueNDRangeKernel;
    proxy.clEnqueueWriteBuffer = proxy_EnqueueWriteBuffer;
    if (pocl->clEnqueueFillBuffer)
        proxy.clEnqueueFillBuffer = proxy_EnqueueFillBuffer;
    proxy.clCreateBuffer = proxy_CreateBuffer;
    if (pocl->clCreateSubBuffer)
        proxy.clCreateSubBuffer = proxy_CreateSubBuffer;
    proxy.clSetKernelArg = proxy_SetKernelArg;
}

/* Gives each "proxy" device of the tables its PoCL device; a table that
 * asks for a proxy it cannot have is a broken test set-up. */
static void bind_proxies(void)
{
    for (cl_uint p = 0; p < n_platforms; p++)
        for (cl_uint k = 0; k < platforms[p].n_devices; k++) {
            struct _cl_device_id *d = &platforms[p].devices[k];
            const char *want = json_string_value(json_object_get(d->spec, "proxy"));
            if (!want)
                continue;
            if (strcmp(want, "pocl") != 0) {
                complain(want, "is no proxy this driver knows (only \"pocl\")");
                continue;
            }
            if (pocl_open() != 0)
                continue;
            d->real = pocl_device;
        }
    if (pocl)
        fill_proxy();
}

/* The calls bwlab makes after discovery, typed so that errcode_ret is set. */
static cl_context CL_API_CALL fake_CreateContext(const cl_context_properties *props, cl_uint n,
                                                 const cl_device_id *devs,
                                                 void(CL_CALLBACK *notify)(const char *,
                                                                           const void *, size_t,
                                                                           void *),
                                                 void *user, cl_int *errcode)
{
    int all = n > 0 && devs;
    for (cl_uint i = 0; all && i < n; i++)
        all = devs[i] && is_fake_device(devs[i]) && devs[i]->real;
    if (all)
        return proxy_CreateContext(props, n, devs, notify, user, errcode);
    if (errcode)
        *errcode = CL_DEVICE_NOT_AVAILABLE;
    return NULL;
}

static cl_context CL_API_CALL fake_CreateContextFromType(
    const cl_context_properties *props, cl_device_type type,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
    cl_int *errcode)
{
    if (errcode)
        *errcode = CL_DEVICE_NOT_AVAILABLE;
    return NULL;
}

static cl_command_queue CL_API_CALL fake_CreateCommandQueue(cl_context c, cl_device_id d,
                                                            cl_command_queue_properties props,
                                                            cl_int *errcode)
{
    if (errcode)
        *errcode = CL_INVALID_CONTEXT;
    return NULL;
}

static cl_mem CL_API_CALL fake_CreateBuffer(cl_context c, cl_mem_flags flags, size_t size,
                                            void *host, cl_int *errcode)
{
    if (errcode)
        *errcode = CL_INVALID_CONTEXT;
    return NULL;
}

static cl_program CL_API_CALL fake_CreateProgramWithSource(cl_context c, cl_uint n,
                                                           const char **src, const size_t *len,
                                                           cl_int *errcode)
{
    if (errcode)
        *errcode = CL_INVALID_CONTEXT;
    return NULL;
}

static cl_kernel CL_API_CALL fake_CreateKernel(cl_program prog, const char *name,
                                               cl_int *errcode)
{
    if (errcode)
        *errcode = CL_INVALID_PROGRAM;
    return NULL;
}

/* Every other entry: no object can exist, so each call fails. These take
 * no parameters; every C calling convention the loader runs on leaves the
 * caller's arguments to the caller, so they are safe behind any signature. */
static cl_int CL_API_CALL fake_fail(void)
{
    return CL_INVALID_OPERATION;
}

static void *CL_API_CALL fake_null(void)
{
    return NULL;
}

#define SET(member, fn) dispatch.member = (cl_api_##member)(fake_fn)(fn)

static void fill_dispatch(void)
{
    fake_fn *slot = (fake_fn *)(void *)&dispatch;
    for (size_t i = 0; i < sizeof dispatch / sizeof(fake_fn); i++)
        slot[i] = (fake_fn)fake_fail;
    /* entries that return an object (or a pointer) fail with NULL */
    SET(clCloneKernel, fake_null);
    SET(clCreateBufferWithProperties, fake_null);
    SET(clCreateCommandQueueWithProperties, fake_null);
    SET(clCreateEventFromEGLSyncKHR, fake_null);
    SET(clCreateEventFromGLsyncKHR, fake_null);
    SET(clCreateFromEGLImageKHR, fake_null);
    SET(clCreateFromGLBuffer, fake_null);
    SET(clCreateFromGLRenderbuffer, fake_null);
    SET(clCreateFromGLTexture, fake_null);
    SET(clCreateFromGLTexture2D, fake_null);
    SET(clCreateFromGLTexture3D, fake_null);
    SET(clCreateImage, fake_null);
    SET(clCreateImage2D, fake_null);
    SET(clCreateImage3D, fake_null);
    SET(clCreateImageWithProperties, fake_null);
    SET(clCreatePipe, fake_null);
    SET(clCreateProgramWithBinary, fake_null);
    SET(clCreateProgramWithBuiltInKernels, fake_null);
    SET(clCreateProgramWithIL, fake_null);
    SET(clCreateSampler, fake_null);
    SET(clCreateSamplerWithProperties, fake_null);
    SET(clCreateSubBuffer, fake_null);
    SET(clCreateUserEvent, fake_null);
    SET(clEnqueueMapBuffer, fake_null);
    SET(clEnqueueMapImage, fake_null);
    SET(clGetExtensionFunctionAddress, fake_null);
    SET(clGetExtensionFunctionAddressForPlatform, fake_null);
    SET(clLinkProgram, fake_null);
    SET(clSVMAlloc, fake_null);
    dispatch.clGetPlatformIDs = fake_GetPlatformIDs;
    dispatch.clGetPlatformInfo = fake_GetPlatformInfo;
    dispatch.clGetDeviceIDs = fake_GetDeviceIDs;
    dispatch.clGetDeviceInfo = fake_GetDeviceInfo;
    dispatch.clCreateContext = fake_CreateContext;
    dispatch.clCreateContextFromType = fake_CreateContextFromType;
    dispatch.clCreateCommandQueue = fake_CreateCommandQueue;
    dispatch.clCreateBuffer = fake_CreateBuffer;
    dispatch.clCreateProgramWithSource = fake_CreateProgramWithSource;
    dispatch.clCreateKernel = fake_CreateKernel;
}

/* The loader looks up clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress
 * and clGetPlatformInfo by symbol (ocl-icd skips a driver without the
 * last, and falls back to asking the second for it). */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param,
                                                  size_t size, void *value, size_t *size_ret)
{
    return fake_GetPlatformInfo(p, param, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *out,
                                                       cl_uint *count)
{
    if (!dispatch.clGetPlatformIDs)
        fill_dispatch();
    return fake_GetPlatformIDs(n, out, count);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    /* the loader casts the answer back to the function's type */
    union {
        fake_fn f;
        void *p;
    } u = { NULL };
    if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
        u.f = (fake_fn)clIcdGetPlatformIDsKHR;
    else if (name && !strcmp(name, "clGetPlatformInfo"))
        u.f = (fake_fn)fake_GetPlatformInfo;
    return u.p;
}

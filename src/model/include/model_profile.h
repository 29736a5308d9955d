/* model_profile: device profiles (docs/design.md §3), loaded at run time from
 * data/profiles.json, selectable by name, overridable per field, and
 * matched to a device from facts the OpenCL layer queried (this module
 * never sees OpenCL itself). */
#ifndef MODEL_PROFILE_H
#define MODEL_PROFILE_H

#include <stddef.h>

#include "bw_error.h"
#include "model_geometry.h"

typedef struct model_profile {
    char *name;
    char *title;
    model_geometry geo;
    /* device queries that replace a stored value when measuring, or NULL:
     * "warp_size_nv", "wavefront_width_amd", "preferred_vector_width_float",
     * "preferred_work_group_size_multiple", "global_mem_cacheline_size",
     * "sub_group_sizes_intel" (lanes only: the stored W when the device
     * lists it, else the listed size nearest to it) */
    char *lanes_from;
    char *sector_from;
    char *line_from;
    /* match: every given condition must hold (case-insensitive) */
    char *match_type;     /* "gpu", "cpu", "accelerator" or NULL */
    char **match_vendor;  /* substrings of the vendor name, any one */
    size_t n_match_vendor;
    char **match_name;    /* substrings of the device name or of its board
                           * name (CL_DEVICE_BOARD_NAME_AMD), any one */
    size_t n_match_name;
    char **sources;
    size_t n_sources;
} model_profile;

typedef struct model_profiles model_profiles; /* opaque list */

/* Finds data/profiles.json (see bw_file_find_resource, $BWLAB_DATA_DIR) and
 * parses it. */
bw_code model_profiles_load_default(model_profiles **out, bw_error *err);
void model_profiles_free(model_profiles *p);

size_t model_profiles_count(const model_profiles *p);
const model_profile *model_profiles_at(const model_profiles *p, size_t i);
/* BW_E_USAGE naming the known profiles when absent. */
bw_code model_profiles_get(const model_profiles *p, const char *name, const model_profile **out,
                           bw_error *err);

/* What the OpenCL layer knows about a device, as plain strings. */
typedef struct model_device_facts {
    const char *vendor;
    const char *name;
    const char *type; /* "gpu", "cpu", "accelerator", "other" */
    const char *board_name; /* CL_DEVICE_BOARD_NAME_AMD, or NULL */
} model_device_facts;

/* The first profile whose match holds. *why (a static description filled
 * into buf of size n) says what matched. NULL if none matches. */
const model_profile *model_profiles_match(const model_profiles *p, const model_device_facts *f,
                                          char *why, size_t n);

#endif

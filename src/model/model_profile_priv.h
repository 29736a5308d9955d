/* model_profile_priv: what only src/model and its tests use of
 * model_profile.h: parsing profile text and finding a profile by name. */
#ifndef MODEL_PROFILE_PRIV_H
#define MODEL_PROFILE_PRIV_H

#include "model_profile.h"

/* Parses profile JSON text; `origin` names it in messages. Fails with
 * BW_E_FORMAT naming the file, the profile and the field. */
bw_code model_profiles_parse(const char *json_text, const char *origin, model_profiles **out,
                             bw_error *err);

/* NULL when absent. */
const model_profile *model_profiles_find(const model_profiles *p, const char *name);

#endif

/* libFuzzer target: the profile reader (src/model/model_profile.c, the
 * format of data/profiles.json; tests/fuzz/README.md). The input is the
 * JSON text. Checks (abort() on a violation): a failure has a message and
 * leaves no list; every profile read has a name, a geometry that
 * model_geometry_check accepts, and is found by its name; matching against
 * a few devices neither crashes nor returns a profile outside the list. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_profile.h"
#include "model_profile_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_profile: " __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    model_profiles *ps = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_profiles_parse(text, "fuzz.json", &ps, &err);
    free(text);
    if (rc != BW_OK) {
        if (ps != NULL || bw_error_text(&err)[0] == '\0')
            FAIL("failure (code %d) without a message or with a list", (int)rc);
        bw_error_clear(&err);
        return 0;
    }
    size_t n = model_profiles_count(ps);
    for (size_t i = 0; i < n; i++) {
        const model_profile *p = model_profiles_at(ps, i);
        if (!p || !p->name)
            FAIL("profile %zu has no name", i);
        if (model_geometry_check(&p->geo, &err) != BW_OK)
            FAIL("profile '%s' was accepted with a bad geometry: %s", p->name, bw_error_text(&err));
        if (model_profiles_find(ps, p->name) == NULL)
            FAIL("profile '%s' is not found by its name", p->name);
    }
    static const model_device_facts devs[] = {
        { "NVIDIA Corporation", "NVIDIA H100 80GB HBM3", "gpu", NULL },
        { "Advanced Micro Devices, Inc.", "gfx942", "gpu", "AMD Instinct MI300X" },
        { "GenuineIntel", "pthread-Intel(R) Xeon(R)", "cpu", NULL },
        { "", "", "other", NULL },
    };
    for (size_t d = 0; d < sizeof devs / sizeof devs[0]; d++) {
        char why[256];
        const model_profile *m = model_profiles_match(ps, &devs[d], why, sizeof why);
        int inside = m == NULL;
        for (size_t i = 0; i < n && !inside; i++)
            inside = m == model_profiles_at(ps, i);
        if (!inside)
            FAIL("match returns a profile outside the list");
    }
    model_profiles_free(ps);
    return 0;
}

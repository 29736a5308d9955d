/* bwlab devices: list the OpenCL devices, all or those --device selects,
 * with their provenance, as a table or JSON. */
#include <stddef.h>
#include <stdlib.h>

#include "bench_device.h"
#include "cli.h"
#include "cli_format.h"
#include "cli_option.h"
#include "model_profile.h"
#include "ocl_device.h"
#include "report_devices.h"

typedef struct devices_args {
    const char *spec; /* NULL: every device, usable or not */
    cli_format_opt format;
} devices_args;

const cli_option cmd_devices_options[] = {
    CLI_OPT_DEVICE(devices_args, spec, 0,
                   "which devices: all (default), an index from this list, cpu, gpu,\n"
                   "or a case-insensitive part of the device name"),
    CLI_OPT_FORMAT(devices_args, format, 0, "table|json", CLI_FORMATS_TABLE_JSON,
                   "table (default) or json (one object, for scripts)"),
    CLI_OPTION_END,
};

int cmd_devices(int argc, char **argv)
{
    const cli_command *self = cli_find("devices");
    devices_args a = { NULL, { CLI_FORMAT_TABLE, 0 } };
    int operands, st = cli_options_parse(self, argc, argv, &a, &operands);
    if (st)
        return st;
    const char *spec = a.spec;

    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    model_profiles *profiles = NULL;
    ocl_platforms *plats = NULL;
    size_t *idx = NULL, n = 0;
    int status = 0;
    bw_code rc = model_profiles_load_default(&profiles, &err);
    if (rc == BW_OK)
        rc = ocl_discover(profiles, &plats, &err);
    if (rc == BW_OK && spec) {
        rc = ocl_select(plats, spec, &idx, &n, &err);
    } else if (rc == BW_OK) {
        n = ocl_device_count(plats);
        if (!(idx = malloc(n * sizeof *idx)))
            rc = bw_error_set(&err, BW_E_NOMEM, "out of memory listing devices");
        for (size_t i = 0; idx && i < n; i++)
            idx[i] = i;
    }
    bench_device_list list = { 0 };
    if (rc == BW_OK)
        rc = bench_device_list_make(plats, idx, n, &list, &err);
    if (rc == BW_OK) {
        if (a.format.format == CLI_FORMAT_JSON)
            rc = report_devices_json(&list, &b, &err);
        else
            report_devices_table(&list, &b);
    }
    if (rc == BW_OK)
        rc = cli_write_output(NULL, &b, &err);
    if (rc != BW_OK)
        status = cli_fail(self, &err);
    bench_device_list_free(&list);
    free(idx);
    ocl_platforms_free(plats);
    model_profiles_free(profiles);
    bw_error_clear(&err);
    bw_buf_free(&b);
    return status;
}

#include <getopt.h>
#include <stdlib.h>

#include "bench_device.h"
#include "cli.h"
#include "cli_format.h"
#include "model_profile.h"
#include "ocl_device.h"
#include "report_devices.h"

int cmd_devices(int argc, char **argv)
{
    const cli_command *self = cli_find("devices");
    static const struct option opts[] = { { "device", required_argument, NULL, 'd' },
                                          { "format", required_argument, NULL, 'f' },
                                          { 0 } };
    const unsigned allowed = (1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON);
    cli_format fmt = CLI_FORMAT_TABLE;
    const char *spec = NULL; /* every device, usable or not */
    int c;
    cli_getopt_state g;
    cli_getopt_start(&g, self, opts, NULL);
    while ((c = cli_getopt(&g, argc, argv)) >= 0) {
        switch (c) {
        case 'd':
            spec = optarg;
            break;
        case 'f':
            if (cli_format_option(self, optarg, allowed, &fmt) != 0)
                return 2;
            break;
        default:
            return cli_option_error(self, c, argv);
        }
    }
    if (c == CLI_GETOPT_FAILED)
        return g.status;
    if (optind < argc)
        return cli_usage_error(self, "unexpected argument '%s'", argv[optind]);

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
        if (fmt == CLI_FORMAT_JSON)
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

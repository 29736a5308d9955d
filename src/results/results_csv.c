/* results_csv: the table of a run's CSV columns and its header line
 * (results_csv.h). */
#include "results_csv.h"

#include <stddef.h>

const results_csv_column RESULTS_CSV_COLUMNS[RC_COUNT] = {
    [RC_DEVICE_INDEX] = { "device_index", NULL },
    [RC_DEVICE] = { "device", NULL },
    [RC_PROFILE] = { "profile", NULL },
    [RC_PATTERN] = { "pattern", NULL },
    [RC_FAMILY] = { "family", NULL },
    [RC_EXPRESSION] = { "expression", NULL },
    [RC_ELEM_BYTES] = { "elem_bytes", "requested" },
    [RC_ITEMS] = { "items", "requested" },
    [RC_STATUS] = { "status", NULL },
    [RC_VALIDATION] = { "validation", NULL },
    [RC_EFFECTIVE_GBS] = { "effective_gbs", "measured" },
    [RC_RELATIVE_TO_SEQ] = { "relative_to_seq", "measured" },
    [RC_TIME_MIN_NS] = { "time_min_ns", "measured" },
    [RC_TIME_MEDIAN_NS] = { "time_median_ns", "measured" },
    [RC_TIME_MEAN_NS] = { "time_mean_ns", "measured" },
    [RC_TIME_STDDEV_NS] = { "time_stddev_ns", "measured" },
    [RC_TIME_COUNT] = { "time_count", "measured" },
    [RC_TIME_RSE] = { "time_rse", "measured" },
    [RC_WALL_MEDIAN_NS] = { "wall_median_ns", "measured" },
    [RC_SECTOR_EFFICIENCY] = { "sector_efficiency", "modeled" },
    [RC_LINE_EFFICIENCY] = { "line_efficiency", "modeled" },
    [RC_REQUESTED_LOAD_BYTES] = { "requested_load_bytes", "requested" },
    [RC_REQUESTED_STORE_BYTES] = { "requested_store_bytes", "requested" },
    [RC_INSTRUCTION_MODEL_LOAD_BYTES] = { "instruction_model_load_bytes", "modeled" },
    [RC_FOOTPRINT_LOAD_BYTES] = { "footprint_load_bytes", "modeled" },
    [RC_INSTRUCTION_MODEL_STORE_BYTES] = { "instruction_model_store_bytes", "modeled" },
    [RC_FOOTPRINT_STORE_BYTES] = { "footprint_store_bytes", "modeled" },
    [RC_PREDICTED_EFFICIENCY] = { "predicted_efficiency", "modeled" },
    [RC_IMPLIED_TRAFFIC_BYTES] = { "implied_traffic_bytes", "measured" },
    [RC_VERDICT] = { "verdict", "measured" },
    [RC_VERDICT_POSITION] = { "verdict_position", "measured" },
    [RC_SIZE_NOTE] = { "size_note", NULL },
    [RC_INDEX_BITS] = { "index_bits", NULL },
    [RC_SUB_GROUP_SIZE] = { "sub_group_size", NULL },
    [RC_ACCESS] = { "access", NULL },
    [RC_FRACTION_OF_PEAK] = { "fraction_of_peak", "measured" },
    [RC_BEST_GBS] = { "best_gbs", "measured" },
    [RC_TWIN_TIME_NS] = { "twin_time_ns", "measured" },
    [RC_TWIN_ITEMS] = { "twin_items", "requested" },
    [RC_TWIN_RATIO] = { "twin_ratio", "measured" },
    [RC_BOUND] = { "bound", "measured" },
    [RC_STABLE] = { "stable", "measured" },
    [RC_SPREAD] = { "spread", "measured" },
    [RC_RELATIVE_SPREAD] = { "relative_spread", "measured" },
    [RC_KERNEL_FORM] = { "kernel_form", "measured" },
    [RC_UNROLL] = { "unroll", NULL },
    [RC_PLAUSIBILITY] = { "plausibility", NULL },
};

void results_csv_header(bw_buf *out)
{
    for (size_t c = 0; c < RC_COUNT; c++)
        bw_buf_printf(out, "%s%s", c ? "," : "", RESULTS_CSV_COLUMNS[c].name);
    bw_buf_putc(out, '\n');
}

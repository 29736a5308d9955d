/* Roofline (docs/design.md §2.4), numbers worked by hand. */
#include <criterion/criterion.h>

#include "model_roofline.h"

Test(model_roofline, bounds_around_the_ridge)
{
    model_roofline r;
    cr_assert_eq(model_roofline_eval(1000, 250, 2, &r, NULL), BW_OK);
    cr_expect_float_eq(r.ridge_intensity, 4.0, 1e-12);
    cr_expect_float_eq(r.attainable_gflops, 500.0, 1e-9);
    cr_expect_eq(r.bound, MODEL_BOUND_MEMORY);
    cr_expect_str_eq(model_bound_name(r.bound), "memory");
    cr_assert_eq(model_roofline_eval(1000, 250, 4, &r, NULL), BW_OK);
    cr_expect_eq(r.bound, MODEL_BOUND_BALANCED);
    cr_expect_float_eq(r.attainable_gflops, 1000.0, 1e-9);
    cr_assert_eq(model_roofline_eval(1000, 250, 8, &r, NULL), BW_OK);
    cr_expect_eq(r.bound, MODEL_BOUND_COMPUTE);
    cr_expect_float_eq(r.attainable_gflops, 1000.0, 1e-9);
    cr_expect_str_eq(model_bound_name(r.bound), "compute");
}

Test(model_roofline, tiled_matmul)
{
    model_roofline r;
    /* T = 16 moves 8N^3/16 bytes for 2N^3 FLOP: 4 FLOP/byte, on the ridge */
    cr_assert_eq(model_roofline_tile(1000, 250, 16, &r, NULL), BW_OK);
    cr_expect_float_eq(r.intensity, 4.0, 1e-12);
    cr_expect_eq(r.bound, MODEL_BOUND_BALANCED);
    cr_expect_eq(r.min_tile_compute_bound, 16);
    cr_expect_eq(r.tile, 16);
    /* 19.5 TFLOP/s over 1555 GB/s: I* = 12.54; T/4 >= 12.54 first at T = 51 */
    cr_assert_eq(model_roofline_tile(19500, 1555, 32, &r, NULL), BW_OK);
    cr_expect_float_eq(r.intensity, 8.0, 1e-12);
    cr_expect_eq(r.bound, MODEL_BOUND_MEMORY);
    cr_expect_float_eq(r.attainable_gflops, 12440.0, 1e-6);
    cr_expect_eq(r.min_tile_compute_bound, 51);
    /* I* = 3 exactly: T = 12, not 13 */
    cr_assert_eq(model_roofline_tile(3, 1, 1, &r, NULL), BW_OK);
    cr_expect_eq(r.min_tile_compute_bound, 12);
    cr_expect_float_eq(r.intensity, 0.25, 1e-12);
    /* I* = 1/3: T = 2 */
    cr_assert_eq(model_roofline_tile(1, 3, 1, &r, NULL), BW_OK);
    cr_expect_eq(r.min_tile_compute_bound, 2);
}

Test(model_roofline, rejects_non_positive)
{
    model_roofline r;
    cr_expect_eq(model_roofline_eval(0, 250, 2, &r, NULL), BW_E_USAGE);
    cr_expect_eq(model_roofline_eval(100, -1, 2, &r, NULL), BW_E_USAGE);
    cr_expect_eq(model_roofline_eval(100, 1, 0, &r, NULL), BW_E_USAGE);
    cr_expect_eq(model_roofline_eval(100, 1, 0.0 / 0.0, &r, NULL), BW_E_USAGE);
    cr_expect_eq(model_roofline_tile(100, 1, 0, &r, NULL), BW_E_USAGE);
}

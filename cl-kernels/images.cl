// Images: read_imagef/write_imagef on image2d_t with a program-scope constant sampler, read_imagei/write_imageui, read_write images, image queries.
constant sampler_t nearestClamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void blur3x3(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 acc = (float4)(0.0f);
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            acc += read_imagef(src, nearestClamp, p + (int2)(dx, dy));
    write_imagef(dst, p, acc / 9.0f);
}

kernel void int_images(read_only image2d_t labels, write_only image2d_t out, global int *stats) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 l = read_imagei(labels, p);
    uint4 u = (uint4)(l.x & 0xff, l.y & 0xff, 0, 255);
    write_imageui(out, p, u);
    if (p.x == 0 && p.y == 0) {
        stats[0] = get_image_width(labels);
        stats[1] = get_image_height(labels);
        stats[2] = get_image_channel_order(labels);
        stats[3] = get_image_channel_data_type(labels);
    }
}

kernel void image_rw(read_write image2d_t img, image1d_buffer_t lut) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(img, p);
    float4 m = read_imagef(lut, (int)(v.x * 255.0f));
    write_imagef(img, p, v * m);
}

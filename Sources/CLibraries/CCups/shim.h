// libcups has no pkg-config file on Debian 12, hence the plain `link "cups"`.
#include <cups/cups.h>
#include <cups/ipp.h>
#include <cups/http.h>
#include <cups/raster.h>

// --- Raster page headers (used by the Rendering module) ---
// cups_page_header2_t keeps its strings in fixed char arrays and its PWG
// integers in cupsInteger[16], which import into Swift as tuples; these
// setters keep the tuple indexing and the truncation to the field size in C.
#include <stdio.h>

static inline void kp_raster_set_media_type(cups_page_header2_t *h, const char *v) {
    snprintf(h->MediaType, sizeof(h->MediaType), "%s", v ? v : "");
}
static inline void kp_raster_set_media_color(cups_page_header2_t *h, const char *v) {
    snprintf(h->MediaColor, sizeof(h->MediaColor), "%s", v ? v : "");
}
static inline void kp_raster_set_page_size_name(cups_page_header2_t *h, const char *v) {
    snprintf(h->cupsPageSizeName, sizeof(h->cupsPageSizeName), "%s", v ? v : "");
}
static inline void kp_raster_set_integer(cups_page_header2_t *h, int index, unsigned value) {
    if (index >= 0 && index < 16) h->cupsInteger[index] = value;
}
static inline unsigned kp_raster_get_integer(const cups_page_header2_t *h, int index) {
    return (index >= 0 && index < 16) ? h->cupsInteger[index] : 0;
}
static inline void kp_raster_set_imaging_bbox(cups_page_header2_t *h, float left, float bottom,
                                              float right, float top) {
    h->cupsImagingBBox[0] = left; h->cupsImagingBBox[1] = bottom;
    h->cupsImagingBBox[2] = right; h->cupsImagingBBox[3] = top;
}

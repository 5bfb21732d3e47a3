#include <pango/pangocairo.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <fontconfig/fontconfig.h>

// Macros do not import into Swift; these inline twins do.
static inline int kp_pango_pixels(int d) { return PANGO_PIXELS(d); }
static inline int kp_pango_scale(void) { return PANGO_SCALE; }

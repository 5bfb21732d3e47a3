// libcups has no pkg-config file on Debian 12, hence the plain `link "cups"`.
#include <cups/cups.h>
#include <cups/ipp.h>
#include <cups/http.h>
#include <cups/raster.h>

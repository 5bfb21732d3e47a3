// zint has no pkg-config file on Debian 12, hence the plain `link "zint"`.
#include <zint.h>

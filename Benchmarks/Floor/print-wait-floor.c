/*
 * print-wait-floor: the floor for `kioskprint print receipt --wait` with no
 * agent running (issue 15): the least a C program can do for the same work,
 * one receipt from start to its end at the printer:
 *
 *   1. lay out the built-in receipt with its sample data (the texts, sizes,
 *      weights, alignments and column widths of
 *      Sources/Templates/BuiltIn/receipt.xml, written out here by hand: no
 *      template, no JSON) with Pango at 203 dpi, the logo PNG scaled to
 *      42 mm, the QR code drawn by zint;
 *   2. draw it on an 8-bit surface of the measured height, threshold it to
 *      1 bit and encode it as PWG raster (black_1) in memory with libcups;
 *   3. spool it durably in SQLite (WAL, synchronous FULL): the job inserted
 *      and committed, marked sending and committed, as KioskPrint's store does;
 *   4. Print-Job on one HTTP connection, Get-Job-Attributes at once and every
 *      10 ms until completed, then the job marked completed and committed,
 *      and the database closed (its checkpoint).
 *
 * It does less than KioskPrint: no template, no JSON, no check of the data,
 * no readiness or Validate-Job exchange, no claim, no page geometry from the
 * printer's capabilities (80 mm at 203 dpi, fixed), no configuration.
 *
 *   print-wait-floor [-n JOBS] [-i ITEMS] URI DATABASE LOGO.png
 *
 * -i repeats the sample's 7 items to ITEMS (the benches' 30-item receipt
 * repeats them the same way).
 *
 * With -n 1 (the default) it is one receipt as a whole process, timed from
 * outside by kioskprint-bench beside `kioskprint print --wait`. With -n N it
 * prints N receipts in one process after one untimed receipt, keeping what
 * an agent keeps (the font map and its context, the logo's ink, the open
 * database, the printer's connection), and prints "cpu-us-per-job N"
 * (getrusage over the timed receipts): the floor for the agent's CPU per
 * receipt. Each receipt's paragraphs are laid out anew (no cache).
 *
 * Built by kioskprint-bench at run time (SameWorkFloor.swift):
 *   cc -O2 -o print-wait-floor print-wait-floor.c $(pkg-config --cflags --libs pangocairo sqlite3)
 *      $(cups-config --cflags --libs) -lzint
 */
#include <cups/cups.h>
#include <cups/raster.h>
#include <pango/pangocairo.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zint.h>

#define DPI 203
#define PAGE_WIDTH 640            /* 80 mm at 203 dpi */
#define MARGIN 40                 /* 1 mm, inside the printer's 4 mm margins, as the agent lays it out */
#define GAP 12                    /* 1.5 mm between columns */
#define MAX_DRAWN 1024

static int mm(double millimetres) { return (int)(millimetres * DPI / 25.4 + 0.5); }

/* What is drawn, once everything is measured. */
struct drawn {
    PangoLayout *layout;          /* or NULL for a fill / the logo / the QR */
    int x, y, width, height;
    int kind;                     /* 0 text, 1 fill, 2 logo, 3 qr */
};

struct receipt {
    int items_count;              /* the sample's 7 items, repeated to this many */
    PangoContext *context;
    struct drawn items[MAX_DRAWN];
    int count, y;
    cairo_surface_t *logo;
    struct zint_symbol *qr;
};

/* The next thing to draw: -i is bounded so that a receipt never has more than MAX_DRAWN. */
static struct drawn *next(struct receipt *r)
{
    if (r->count == MAX_DRAWN) { fputs("print-wait-floor: too many things to draw\n", stderr); exit(1); }
    return &r->items[r->count++];
}

static PangoLayout *text_layout(struct receipt *r, const char *text, double size, int bold, int italic,
                                PangoAlignment align, int width)
{
    PangoLayout *layout = pango_layout_new(r->context);
    PangoFontDescription *font = pango_font_description_from_string("DejaVu Sans");
    pango_font_description_set_size(font, (int)(size * PANGO_SCALE));
    pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(font, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_alignment(layout, align);
    pango_layout_set_width(layout, width * PANGO_SCALE);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_text(layout, text, -1);
    return layout;
}

static int add_text_at(struct receipt *r, const char *text, double size, int bold, int italic, PangoAlignment align,
                       int x, int width)
{
    PangoLayout *layout = text_layout(r, text, size, bold, italic, align, width);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    *next(r) = (struct drawn){layout, x, r->y, width, h, 0};
    return h;
}

static void add_text(struct receipt *r, const char *text, double size, int bold, PangoAlignment align)
{
    r->y += add_text_at(r, text, size, bold, 0, align, MARGIN, PAGE_WIDTH - 2 * MARGIN);
}

/* A row of columns: widths in dots, 0 = what is left (the template's 1fr). */
static void add_row(struct receipt *r, double size, int bold, int italic, int columns, const char *texts[],
                    const int widths[], const PangoAlignment aligns[])
{
    int fixed = 0, x = MARGIN, tallest = 0;
    for (int i = 0; i < columns; i++) fixed += widths[i] + (i ? GAP : 0);
    for (int i = 0; i < columns; i++) {
        int width = widths[i] ? widths[i] : PAGE_WIDTH - 2 * MARGIN - fixed;
        if (texts[i] && *texts[i]) {
            int h = add_text_at(r, texts[i], size, bold, italic, aligns[i], x, width);
            if (h > tallest) tallest = h;
        }
        x += width + GAP;
    }
    r->y += tallest;
}

static void two_columns(struct receipt *r, double size, int bold, int italic, const char *left, const char *right)
{
    const char *texts[] = {left, right};
    const int widths[] = {0, mm(30)};
    const PangoAlignment aligns[] = {PANGO_ALIGN_LEFT, PANGO_ALIGN_RIGHT};
    add_row(r, size, bold, italic, 2, texts, widths, aligns);
}

static void add_fill(struct receipt *r, int x, int width, int height)
{
    *next(r) = (struct drawn){NULL, x, r->y, width, height, 1};
}

static void lay_out(struct receipt *r)
{
    /* The logo, 42 mm wide, centred. */
    int logo_width = mm(42);
    int logo_height = cairo_image_surface_get_height(r->logo) * logo_width / cairo_image_surface_get_width(r->logo);
    *next(r) = (struct drawn){NULL, (PAGE_WIDTH - logo_width) / 2, r->y, logo_width, logo_height, 2};
    r->y += logo_height + mm(2);
    add_text(r, "Kiosk Market Harbourside", 13, 1, PANGO_ALIGN_CENTER);
    add_text(r, "12 Harbour Street, Bristol BS1 4QA\nTel. 0117 496 0123 \xc2\xb7 VAT GB 123 4567 89", 8, 0,
             PANGO_ALIGN_CENTER);
    r->y += mm(2);
    two_columns(r, 8, 0, 0, "Receipt R-2026-004711", "23/11/2026 14:05");
    two_columns(r, 8, 0, 0, "Till 3", "Served by Dana");
    r->y += mm(1);
    for (int x = MARGIN; x < PAGE_WIDTH - MARGIN; x += mm(3)) add_fill(r, x, mm(2), 2);
    r->y += 2 + mm(1);

    static const char *items[][3] = {
        {"Flat white", "2 \xc3\x97", "6.40"}, {"Almond croissant", "1 \xc3\x97", "2.95"},
        {"Sparkling water 500 ml", "3 \xc3\x97", "3.75"},
        {"Sourdough loaf, seeded (whole, not sliced)", "1 \xc3\x97", "4.20"},
        {"Free-range eggs \xc3\x97" "6", "1 \xc3\x97", "2.60"}, {"Cr\xc3\xa8me fra\xc3\xae" "che", "1 \xc3\x97", "1.85"},
        {"Newspaper", "1 \xc3\x97", "2.00"},
    };
    const int item_widths[] = {0, mm(11), mm(17)};
    const PangoAlignment item_aligns[] = {PANGO_ALIGN_LEFT, PANGO_ALIGN_RIGHT, PANGO_ALIGN_RIGHT};
    const int modifier_widths[] = {mm(4), 0};
    const PangoAlignment modifier_aligns[] = {PANGO_ALIGN_LEFT, PANGO_ALIGN_LEFT};
    for (int k = 0; k < r->items_count; k++) {
        int i = k % 7;
        add_row(r, 10, 0, 0, 3, items[i], item_widths, item_aligns);
        if (i == 0) {
            const char *oat[] = {"", "+ Oat milk"}, *shot[] = {"", "+ Extra shot"};
            add_row(r, 8, 0, 0, 2, oat, modifier_widths, modifier_aligns);
            add_row(r, 8, 0, 0, 2, shot, modifier_widths, modifier_aligns);
        }
        if (i == 1) {
            const char *deal[] = {"", "Morning deal", "-0.50"};
            const int widths[] = {mm(4), 0, mm(20)};
            add_row(r, 8, 0, 1, 3, deal, widths, item_aligns);
        }
    }
    r->y += mm(1);
    add_fill(r, MARGIN, PAGE_WIDTH - 2 * MARGIN, 2);
    r->y += 2;
    two_columns(r, 10, 0, 0, "Subtotal", "23.25");
    two_columns(r, 10, 0, 0, "Member discount 10% (food)", "-1.73");
    two_columns(r, 8, 0, 0, "VAT 20% on 10.50", "1.75");
    two_columns(r, 8, 0, 0, "VAT 0% on 11.02", "0.00");
    add_fill(r, MARGIN, PAGE_WIDTH - 2 * MARGIN, 2);
    r->y += 4;
    add_fill(r, MARGIN, PAGE_WIDTH - 2 * MARGIN, 2);
    r->y += 2;
    two_columns(r, 14, 1, 0, "TOTAL", "\xc2\xa3 21.52");
    add_fill(r, MARGIN, PAGE_WIDTH - 2 * MARGIN, 2);
    r->y += 4;
    add_fill(r, MARGIN, PAGE_WIDTH - 2 * MARGIN, 2);
    r->y += 2 + mm(1);
    two_columns(r, 10, 0, 0, "Visa contactless", "20.00");
    add_text(r, "**** **** **** 4242  Auth 081553", 8, 0, PANGO_ALIGN_LEFT);
    two_columns(r, 10, 0, 0, "Cash", "5.00");
    two_columns(r, 10, 0, 0, "Change", "3.48");
    r->y += mm(3);

    /* The QR code, 4 dots a module, centred. */
    r->qr = ZBarcode_Create();
    r->qr->symbology = BARCODE_QRCODE;
    r->qr->scale = 2; /* zint's scale 1 is 2 pixels a module */
    const char *url = "https://kiosk.example/r/R-2026-004711";
    if (ZBarcode_Encode_and_Buffer(r->qr, (const unsigned char *)url, (int)strlen(url), 0) >= ZINT_ERROR) {
        fprintf(stderr, "print-wait-floor: zint: %s\n", r->qr->errtxt);
        exit(1);
    }
    *next(r) = (struct drawn){NULL, (PAGE_WIDTH - r->qr->bitmap_width) / 2, r->y, r->qr->bitmap_width,
                                          r->qr->bitmap_height, 3};
    r->y += r->qr->bitmap_height;
    add_text(r, "R-2026-004711", 8, 0, PANGO_ALIGN_CENTER);
    r->y += mm(2);
    add_text(r, "Thank you for shopping with us!\nKeep this receipt: returns within 28 days.", 10, 0,
             PANGO_ALIGN_CENTER);
    r->y += MARGIN;
}

/* Draws the measured receipt on an 8-bit surface. */
static cairo_surface_t *draw(struct receipt *r)
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, PAGE_WIDTH, r->y);
    cairo_t *cr = cairo_create(surface);
    for (int i = 0; i < r->count; i++) {
        struct drawn *d = &r->items[i];
        switch (d->kind) {
        case 0:
            cairo_move_to(cr, d->x, d->y);
            pango_cairo_show_layout(cr, d->layout);
            break;
        case 1:
            cairo_rectangle(cr, d->x, d->y, d->width, d->height);
            cairo_fill(cr);
            break;
        case 2: {
            double scale = (double)d->width / cairo_image_surface_get_width(r->logo);
            cairo_save(cr);
            cairo_translate(cr, d->x, d->y);
            cairo_scale(cr, scale, scale);
            cairo_mask_surface(cr, r->logo, 0, 0);
            cairo_restore(cr);
            break;
        }
        case 3:
            for (int y = 0; y < d->height; y++)
                for (int x = 0; x < d->width; x++)
                    if (r->qr->bitmap[(y * d->width + x) * 3] < 128) cairo_rectangle(cr, d->x + x, d->y + y, 1, 1);
            cairo_fill(cr);
            break;
        }
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    return surface;
}

struct buffer { unsigned char *data; size_t length, capacity; };

static ssize_t append(void *context, unsigned char *bytes, size_t length)
{
    struct buffer *b = context;
    if (b->length + length > b->capacity) {
        b->capacity = (b->length + length) * 2;
        b->data = realloc(b->data, b->capacity);
    }
    memcpy(b->data + b->length, bytes, length);
    b->length += length;
    return (ssize_t)length;
}

/* The page as PWG raster, black_1, into `out`. */
static void encode(cairo_surface_t *surface, struct buffer *out, int *length_hundredths)
{
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *ink = cairo_image_surface_get_data(surface);
    *length_hundredths = height * 2540 / DPI;
    cups_page_header2_t header;
    if (!cupsRasterInitPWGHeader(&header, pwgMediaForSize(8000, *length_hundredths), "black_1", DPI, DPI,
                                 "one-sided", NULL)) {
        fprintf(stderr, "print-wait-floor: %s\n", cupsLastErrorString());
        exit(1);
    }
    cups_raster_t *raster = cupsRasterOpenIO(append, out, CUPS_RASTER_WRITE_PWG);
    cupsRasterWriteHeader2(raster, &header);
    unsigned char *line = calloc(header.cupsBytesPerLine, 1);
    for (unsigned y = 0; y < header.cupsHeight; y++) {
        memset(line, 0, header.cupsBytesPerLine);
        if (y < (unsigned)height)
            for (int x = 0; x < width && x < (int)header.cupsWidth; x++)
                if (ink[y * stride + x] >= 128) line[x >> 3] |= 0x80 >> (x & 7);
        cupsRasterWritePixels(raster, line, header.cupsBytesPerLine);
    }
    free(line);
    cupsRasterClose(raster);
}

static void sql(sqlite3 *db, const char *statement)
{
    char *error = NULL;
    if (sqlite3_exec(db, statement, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "print-wait-floor: %s: %s\n", statement, error);
        exit(1);
    }
}

static int print_and_follow(http_t *http, const char *uri, const char *resource, const struct buffer *pwg,
                            int length_hundredths)
{
    ipp_t *request = ippNewRequest(IPP_OP_PRINT_JOB);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", NULL, uri);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", NULL, cupsUser());
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", NULL, "floor receipt");
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_MIMETYPE, "document-format", NULL, "image/pwg-raster");
    ippAddString(request, IPP_TAG_JOB, IPP_TAG_KEYWORD, "print-color-mode", NULL, "monochrome");
    ipp_t *col = ippNew(), *size = ippNew();
    ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "x-dimension", 8000);
    ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "y-dimension", length_hundredths);
    ippAddCollection(col, IPP_TAG_ZERO, "media-size", size);
    ippAddCollection(request, IPP_TAG_JOB, "media-col", col);
    ippDelete(size);
    ippDelete(col);
    ipp_t *reply = NULL;
    http_status_t status = cupsSendRequest(http, request, resource, ippLength(request) + pwg->length);
    if (status == HTTP_STATUS_CONTINUE) status = cupsWriteRequestData(http, (const char *)pwg->data, pwg->length);
    if (status == HTTP_STATUS_CONTINUE || status == HTTP_STATUS_OK) reply = cupsGetResponse(http, resource);
    ippDelete(request);
    ipp_attribute_t *attr = reply ? ippFindAttribute(reply, "job-id", IPP_TAG_INTEGER) : NULL;
    int id = attr ? ippGetInteger(attr, 0) : 0;
    ippDelete(reply);
    if (!id) { fprintf(stderr, "print-wait-floor: Print-Job failed: %s\n", cupsLastErrorString()); return 0; }
    for (;;) {
        request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES);
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", NULL, uri);
        ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", id);
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", NULL, cupsUser());
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", NULL, "job-state");
        reply = cupsDoRequest(http, request, resource);
        attr = reply ? ippFindAttribute(reply, "job-state", IPP_TAG_ENUM) : NULL;
        int state = attr ? ippGetInteger(attr, 0) : 0;
        ippDelete(reply);
        if (state == IPP_JSTATE_COMPLETED) return id;
        if (state == 0 || state >= IPP_JSTATE_STOPPED) {
            fprintf(stderr, "print-wait-floor: job %d ended in state %d\n", id, state);
            return 0;
        }
        usleep(10000);
    }
}

/* The logo's ink (dark and opaque = ink) as an 8-bit mask, as the page is. */
static cairo_surface_t *logo_ink(const char *path)
{
    cairo_surface_t *png = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "print-wait-floor: %s\n", path); exit(1); }
    cairo_surface_flush(png);
    int width = cairo_image_surface_get_width(png), height = cairo_image_surface_get_height(png);
    cairo_surface_t *ink = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height);
    const unsigned char *from = cairo_image_surface_get_data(png);
    unsigned char *to = cairo_image_surface_get_data(ink);
    int from_stride = cairo_image_surface_get_stride(png), to_stride = cairo_image_surface_get_stride(ink);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            uint32_t pixel = *(const uint32_t *)(from + y * from_stride + 4 * x); /* premultiplied ARGB */
            unsigned alpha = pixel >> 24, gray = (((pixel >> 16) & 255) * 77 + ((pixel >> 8) & 255) * 150 + (pixel & 255) * 29) >> 8;
            to[y * to_stride + x] = (unsigned char)(alpha - (gray > alpha ? alpha : gray)); /* alpha * (1 - lightness) */
        }
    cairo_surface_mark_dirty(ink);
    cairo_surface_destroy(png);
    return ink;
}

/* What a process opens once: fonts, the logo, the database, the printer's connection. */
struct session {
    PangoFontMap *fonts;
    PangoContext *context;
    cairo_surface_t *like_page, *logo;
    cairo_t *like_page_cr;
    sqlite3 *db;
    http_t *http;
    const char *uri;
    char resource[1024];
};

static void open_session(struct session *s, const char *uri, const char *database, const char *logo)
{
    s->uri = uri;
    s->fonts = pango_cairo_font_map_new();
    pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(s->fonts), DPI);
    s->context = pango_font_map_create_context(s->fonts);
    /* Font options (hinting, antialiasing) from an 8-bit surface like the page's. */
    s->like_page = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    s->like_page_cr = cairo_create(s->like_page);
    pango_cairo_update_context(s->like_page_cr, s->context);
    pango_cairo_context_set_resolution(s->context, DPI);
    pango_context_set_language(s->context, pango_script_get_sample_language(PANGO_SCRIPT_LATIN));
    s->logo = logo_ink(logo);
    if (sqlite3_open(database, &s->db) != SQLITE_OK) { fprintf(stderr, "print-wait-floor: cannot open %s\n", database); exit(1); }
    sql(s->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
               "CREATE TABLE IF NOT EXISTS job(id INTEGER PRIMARY KEY, name TEXT, data TEXT, state TEXT, printerJobId INTEGER)");
    char scheme[32], userpass[256], host[256];
    int port;
    httpSeparateURI(HTTP_URI_CODING_ALL, uri, scheme, sizeof(scheme), userpass, sizeof(userpass), host, sizeof(host),
                    &port, s->resource, sizeof(s->resource));
    http_encryption_t encryption = strcmp(scheme, "ipps") == 0 ? HTTP_ENCRYPTION_ALWAYS : HTTP_ENCRYPTION_IF_REQUESTED;
    s->http = httpConnect2(host, port, NULL, AF_UNSPEC, encryption, 1, 30000, NULL);
    if (!s->http) { fprintf(stderr, "print-wait-floor: cannot connect to %s: %s\n", uri, cupsLastErrorString()); exit(1); }
}

static void close_session(struct session *s)
{
    httpClose(s->http);
    sqlite3_close(s->db); /* the last connection: checkpoints the WAL */
    cairo_surface_destroy(s->logo);
    cairo_destroy(s->like_page_cr);
    cairo_surface_destroy(s->like_page);
    g_object_unref(s->context);
    g_object_unref(s->fonts);
}

/* One receipt: laid out, drawn, encoded, spooled, printed and followed to its end. */
static int one_receipt(struct session *s, int items)
{
    struct receipt r = {.items_count = items, .context = s->context, .logo = s->logo};
    lay_out(&r);
    cairo_surface_t *page = draw(&r);
    struct buffer pwg = {0};
    int length;
    encode(page, &pwg, &length);

    /* The spool: queued (synced), sending (synced). */
    sql(s->db, "INSERT INTO job(name, data, state) VALUES('floor receipt', '{\"store\":{\"name\":\"Kiosk Market Harbourside\"}}', 'queued')");
    sqlite3_int64 job = sqlite3_last_insert_rowid(s->db);
    char statement[160];
    snprintf(statement, sizeof(statement), "UPDATE job SET state = 'sending' WHERE id = %lld", job);
    sql(s->db, statement);

    int id = print_and_follow(s->http, s->uri, s->resource, &pwg, length);

    snprintf(statement, sizeof(statement), "UPDATE job SET state = '%s', printerJobId = %d WHERE id = %lld",
             id ? "completed" : "aborted", id, job);
    sql(s->db, statement);

    for (int i = 0; i < r.count; i++) if (r.items[i].layout) g_object_unref(r.items[i].layout);
    ZBarcode_Delete(r.qr);
    cairo_surface_destroy(page);
    free(pwg.data);
    return id != 0;
}

int main(int argc, char *argv[])
{
    int jobs = 1, items = 7, option;
    const char *usage = "usage: print-wait-floor [-n JOBS] [-i ITEMS] URI DATABASE LOGO.png\n";
    while ((option = getopt(argc, argv, "n:i:")) != -1) {
        if (option == 'n') jobs = atoi(optarg);
        else if (option == 'i') items = atoi(optarg);
        else { fputs(usage, stderr); return 2; }
    }
    if (argc - optind != 3 || jobs < 1 || items < 1 || items > 200) { fputs(usage, stderr); return 2; }
    struct session session;
    open_session(&session, argv[optind], argv[optind + 1], argv[optind + 2]);
    if (jobs == 1) {
        int printed = one_receipt(&session, items);
        close_session(&session);
        return printed ? 0 : 1;
    }
    /* An untimed receipt first: fonts, code and connection warm, as in an agent. */
    if (!one_receipt(&session, items)) return 1;
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    for (int i = 0; i < jobs; i++) if (!one_receipt(&session, items)) return 1;
    getrusage(RUSAGE_SELF, &after);
    close_session(&session);
    long us = (after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec - before.ru_stime.tv_sec) * 1000000L
              + (after.ru_utime.tv_usec - before.ru_utime.tv_usec) + (after.ru_stime.tv_usec - before.ru_stime.tv_usec);
    printf("cpu-us-per-job %ld\n", us / jobs);
    return 0;
}

/*
 * ipp-print-floor: the floor for KioskPrint's "accepted -> completed at the
 * printer" figure (issue 15). The least a program can do to print a receipt
 * that is already drawn: one Print-Job with the pre-drawn PWG raster bytes
 * and the attributes KioskPrint's agent sends for a receipt
 * (Sources/IPP/Jobs/JobRequestEncoding.swift, Sources/Spooler/Channels/IPPChannel.swift):
 *
 *   operation: printer-uri, requesting-user-name, job-name, document-format
 *   job:       print-color-mode monochrome,
 *              media-col { media-size { x-dimension y-dimension } media-source },
 *              finishings (the cut), when given
 *
 * then Get-Job-Attributes (job-state) at once and every 10 ms until the job
 * is completed. The document is read into memory once, before any timing,
 * and every job goes over one HTTP connection (httpConnect2 once, kept alive).
 *
 *   ipp-print-floor [-n JOBS] [-w WARMUPS] [-x X] [-y Y] [-s SOURCE]
 *                   [-f FINISHING]... [-F FORMAT] URI FILE
 *
 * Prints one line per timed job, "job ID MS" (milliseconds from just before
 * Print-Job is sent to the Get-Job-Attributes reply that reads completed,
 * CLOCK_MONOTONIC), then "cpu-us N": this process's user + system time over
 * the timed jobs (getrusage). Exits 1 when a job does not complete.
 * With the defaults (-n 1, -w 0) it is the one-job client, run as a whole
 * process by kioskprint-bench beside `kioskprint print --wait`.
 *
 * Built by kioskprint-bench at run time (FloorClient.swift):
 *   cc -O2 -o ipp-print-floor ipp-print-floor.c $(pkg-config --cflags --libs cups)
 * (Debian 12's libcups2-dev has no cups.pc: then `cups-config --cflags --libs`.)
 */
#include <cups/cups.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_FINISHINGS 8

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static long cpu_us(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000L + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

/* The job as the agent describes it; the same for every job of the run. */
struct job_spec {
    const char *uri, *resource, *format, *source;
    int x, y, finishings[MAX_FINISHINGS], finishing_count;
    const char *data;
    size_t length;
};

/* One Print-Job on `http`; returns the printer's job id, or 0 after saying why. */
static int print_job(http_t *http, const struct job_spec *spec, int number)
{
    char name[64];
    snprintf(name, sizeof(name), "floor receipt %d", number);
    ipp_t *request = ippNewRequest(IPP_OP_PRINT_JOB);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", NULL, spec->uri);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", NULL, cupsUser());
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", NULL, name);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_MIMETYPE, "document-format", NULL, spec->format);
    ippAddString(request, IPP_TAG_JOB, IPP_TAG_KEYWORD, "print-color-mode", NULL, "monochrome");
    if (spec->x > 0 && spec->y > 0) {
        ipp_t *col = ippNew(), *size = ippNew();
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "x-dimension", spec->x);
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "y-dimension", spec->y);
        ippAddCollection(col, IPP_TAG_ZERO, "media-size", size);
        ippDelete(size);
        if (spec->source)
            ippAddString(col, IPP_TAG_ZERO, IPP_TAG_KEYWORD, "media-source", NULL, spec->source);
        ippAddCollection(request, IPP_TAG_JOB, "media-col", col);
        ippDelete(col);
    }
    if (spec->finishing_count > 0)
        ippAddIntegers(request, IPP_TAG_JOB, IPP_TAG_ENUM, "finishings", spec->finishing_count, spec->finishings);

    /* The request, then the document from memory, in one HTTP POST whose
     * Content-Length covers both. HTTP_STATUS_OK from the write: the printer
     * answered before taking the whole document; its reply is read all the same. */
    ipp_t *reply = NULL;
    http_status_t status = cupsSendRequest(http, request, spec->resource, ippLength(request) + spec->length);
    if (status == HTTP_STATUS_CONTINUE)
        status = cupsWriteRequestData(http, spec->data, spec->length);
    if (status == HTTP_STATUS_CONTINUE || status == HTTP_STATUS_OK)
        reply = cupsGetResponse(http, spec->resource);
    else
        httpFlush(http);
    ippDelete(request);
    int id = 0;
    ipp_attribute_t *attr;
    if (reply && ippGetStatusCode(reply) <= IPP_STATUS_OK_CONFLICTING &&
        (attr = ippFindAttribute(reply, "job-id", IPP_TAG_INTEGER)) != NULL)
        id = ippGetInteger(attr, 0);
    else
        fprintf(stderr, "ipp-print-floor: Print-Job failed: %s\n", cupsLastErrorString());
    ippDelete(reply);
    return id;
}

/* The job's state (Get-Job-Attributes, job-state only), or 0 after saying why. */
static int job_state(http_t *http, const struct job_spec *spec, int id)
{
    ipp_t *request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", NULL, spec->uri);
    ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", id);
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", NULL, cupsUser());
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", NULL, "job-state");
    ipp_t *reply = cupsDoRequest(http, request, spec->resource); /* frees request */
    ipp_attribute_t *attr = reply ? ippFindAttribute(reply, "job-state", IPP_TAG_ENUM) : NULL;
    int state = attr ? ippGetInteger(attr, 0) : 0;
    if (!state)
        fprintf(stderr, "ipp-print-floor: Get-Job-Attributes for job %d failed: %s\n", id, cupsLastErrorString());
    ippDelete(reply);
    return state;
}

/* Prints once and follows the job to its end; returns its milliseconds, or -1. */
static double print_and_follow(http_t *http, const struct job_spec *spec, int number, int *id)
{
    double started = now_ms();
    if ((*id = print_job(http, spec, number)) == 0)
        return -1;
    for (;;) {
        int state = job_state(http, spec, *id);
        if (state == IPP_JSTATE_COMPLETED)
            return now_ms() - started;
        if (state == 0 || state >= IPP_JSTATE_STOPPED) {
            fprintf(stderr, "ipp-print-floor: job %d ended in state %d\n", *id, state);
            return -1;
        }
        usleep(10000); /* every 10 ms */
    }
}

static int usage(void)
{
    fputs("usage: ipp-print-floor [-n JOBS] [-w WARMUPS] [-x X] [-y Y] [-s SOURCE] [-f FINISHING]... "
          "[-F FORMAT] URI FILE\n", stderr);
    return 2;
}

int main(int argc, char *argv[])
{
    struct job_spec spec = {.format = "image/pwg-raster"};
    int jobs = 1, warmups = 0, option;
    while ((option = getopt(argc, argv, "n:w:x:y:s:f:F:")) != -1) {
        switch (option) {
        case 'n': jobs = atoi(optarg); break;
        case 'w': warmups = atoi(optarg); break;
        case 'x': spec.x = atoi(optarg); break;
        case 'y': spec.y = atoi(optarg); break;
        case 's': spec.source = optarg; break;
        case 'F': spec.format = optarg; break;
        case 'f':
            if (spec.finishing_count == MAX_FINISHINGS) return usage();
            spec.finishings[spec.finishing_count++] = atoi(optarg);
            break;
        default: return usage();
        }
    }
    if (argc - optind != 2 || jobs < 1 || warmups < 0) return usage();
    spec.uri = argv[optind];

    /* The document, read once into memory before any timing. */
    FILE *file = fopen(argv[optind + 1], "rb");
    if (!file) { perror(argv[optind + 1]); return 1; }
    fseek(file, 0, SEEK_END);
    spec.length = (size_t)ftell(file);
    rewind(file);
    char *data = malloc(spec.length ? spec.length : 1);
    if (!data || fread(data, 1, spec.length, file) != spec.length) { perror("read"); return 1; }
    fclose(file);
    spec.data = data;

    /* One connection for every job: ipp://host:port/resource. */
    char scheme[32], userpass[256], host[256], resource[1024];
    int port;
    if (httpSeparateURI(HTTP_URI_CODING_ALL, spec.uri, scheme, sizeof(scheme), userpass, sizeof(userpass), host,
                        sizeof(host), &port, resource, sizeof(resource)) < HTTP_URI_STATUS_OK) {
        fprintf(stderr, "ipp-print-floor: bad printer URI %s\n", spec.uri);
        return 2;
    }
    spec.resource = resource;
    http_encryption_t encryption = strcmp(scheme, "ipps") == 0 ? HTTP_ENCRYPTION_ALWAYS : HTTP_ENCRYPTION_IF_REQUESTED;
    http_t *http = httpConnect2(host, port, NULL, AF_UNSPEC, encryption, 1, 30000, NULL);
    if (!http) {
        fprintf(stderr, "ipp-print-floor: cannot connect to %s:%d: %s\n", host, port, cupsLastErrorString());
        return 1;
    }

    int id;
    for (int i = 0; i < warmups; i++)
        if (print_and_follow(http, &spec, i + 1, &id) < 0) return 1;
    long cpu_before = cpu_us();
    for (int i = 0; i < jobs; i++) {
        double ms = print_and_follow(http, &spec, warmups + i + 1, &id);
        if (ms < 0) return 1;
        printf("job %d %.3f\n", id, ms);
    }
    printf("cpu-us %ld\n", cpu_us() - cpu_before);
    httpClose(http);
    free(data);
    return 0;
}

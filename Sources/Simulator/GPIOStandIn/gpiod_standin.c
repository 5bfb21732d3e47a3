/*
 * A stand-in for libgpiod v1 (1.6), for machines without GPIO hardware.
 *
 * Built into a shared library and loaded with LD_PRELOAD, it replaces
 * exactly the libgpiod functions KioskPrint's GPIO module calls (listed at
 * the end of this comment). Any other libgpiod call would reach the real
 * library with one of these objects and crash, so a call added to the
 * binding must be added here too. gpiod.h is included so the compiler
 * checks every signature against the real one.
 *
 * It is driven through the folder named by $KIOSKPRINT_GPIO_STANDIN:
 *
 *   <chip>/               one folder per chip, named like "gpiochip0";
 *                         no folder: the chip does not exist (ENOENT)
 *   <chip>/label          the chip's label (one line)
 *   <chip>/lines          how many lines it has (decimal)
 *   <chip>/names          line names, one per line in offset order; an empty
 *                         line is an unnamed line
 *   <chip>/denied         if present, opening the chip fails with EACCES
 *   <chip>/N.busy         another consumer holds line N: the file holds its
 *                         name; requesting N fails with EBUSY
 *   <chip>/N.request      written (atomically) while this process holds
 *                         line N: "consumer=...", "direction=input|output",
 *                         "active-low=0|1", "bias=as-is|disable|pull-up|
 *                         pull-down", one per line; removed on release
 *   <chip>/N.edges        a FIFO, created for an input request and opened
 *                         O_RDWR|O_NONBLOCK (so it never reads EOF) before
 *                         N.request appears. A test writes 23-byte records:
 *                         "R " or "F " (the line's physical level rose or
 *                         fell), 20 decimal digits of timestamp in
 *                         nanoseconds, "\n" -- printf 'F %020llu\n' NS.
 *                         Like the kernel, an active-low request inverts
 *                         the reported edge: a falling level reads as a
 *                         rising (pressed) edge.
 *   <chip>/N.value        an output's physical level, "0\n" or "1\n" (after
 *                         active-low inversion, like the pin), replaced by
 *                         rename on every change
 *   <chip>/N.log          every level the output was driven to, appended
 *                         one per line: first the request's initial value,
 *                         then each gpiod_line_set_value
 *
 * Functions: gpiod_chip_open_lookup, gpiod_chip_close, gpiod_chip_num_lines,
 * gpiod_chip_get_line, gpiod_chip_find_line, gpiod_line_name,
 * gpiod_line_consumer, gpiod_line_request_both_edges_events_flags,
 * gpiod_line_request_output_flags, gpiod_line_set_value, gpiod_line_release,
 * gpiod_line_event_get_fd, gpiod_line_event_read.
 */
#define _GNU_SOURCE
#include <gpiod.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STANDIN_RECORD_SIZE 23
#define STANDIN_TEXT 128

enum standin_state { STANDIN_FREE, STANDIN_INPUT, STANDIN_OUTPUT };

struct gpiod_line {
	struct gpiod_chip *chip;
	unsigned int offset;
	char name[STANDIN_TEXT];
	char consumer[STANDIN_TEXT];
	enum standin_state state;
	int flags;
	int fd;
};

struct gpiod_chip {
	char dir[PATH_MAX];
	unsigned int num_lines;
	struct gpiod_line **lines;
};

/* Reads a small file's first line into buf; -1 if it cannot be read. */
static int standin_read(const char *path, char *buf, size_t size)
{
	FILE *file = fopen(path, "re");
	if (!file)
		return -1;
	if (!fgets(buf, (int)size, file))
		buf[0] = '\0';
	fclose(file);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void standin_path(char *out, const struct gpiod_chip *chip, unsigned int offset, const char *suffix)
{
	snprintf(out, PATH_MAX, "%s/%u.%s", chip->dir, offset, suffix);
}

/* Writes text to path through a temporary file and rename, so a reader never sees half of it. */
static int standin_replace(const char *path, const char *text)
{
	char temporary[PATH_MAX + 8];
	snprintf(temporary, sizeof(temporary), "%s.tmp", path);
	int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t length = strlen(text);
	int ok = write(fd, text, length) == (ssize_t)length;
	close(fd);
	return ok ? rename(temporary, path) : -1;
}

static int standin_is_dir(const char *path)
{
	struct stat info;
	return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* Finds the chip's folder: by name, path (/dev/NAME), number, or label. */
static int standin_find_chip(const char *root, const char *descr, char *out)
{
	const char *name = descr;
	char numbered[64];
	if (strncmp(descr, "/dev/", 5) == 0)
		name = descr + 5;
	else if (descr[0] && strspn(descr, "0123456789") == strlen(descr)) {
		snprintf(numbered, sizeof(numbered), "gpiochip%s", descr);
		name = numbered;
	}
	if (name[0] && !strchr(name, '/')) {
		snprintf(out, PATH_MAX, "%s/%s", root, name);
		if (standin_is_dir(out))
			return 0;
	}
	DIR *dir = opendir(root);
	if (!dir)
		return -1;
	struct dirent *entry;
	while ((entry = readdir(dir))) {
		char label[STANDIN_TEXT], path[PATH_MAX];
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/label", root, entry->d_name);
		if (standin_read(path, label, sizeof(label)) == 0 && strcmp(label, descr) == 0) {
			snprintf(out, PATH_MAX, "%s/%s", root, entry->d_name);
			closedir(dir);
			return 0;
		}
	}
	closedir(dir);
	return -1;
}

struct gpiod_chip *gpiod_chip_open_lookup(const char *descr)
{
	const char *root = getenv("KIOSKPRINT_GPIO_STANDIN");
	char dir[PATH_MAX], path[PATH_MAX], text[STANDIN_TEXT];
	if (!root || !descr || standin_find_chip(root, descr, dir) != 0) {
		errno = ENOENT;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/denied", dir);
	if (access(path, F_OK) == 0) {
		errno = EACCES;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/lines", dir);
	if (standin_read(path, text, sizeof(text)) != 0) {
		errno = ENODEV;
		return NULL;
	}
	struct gpiod_chip *chip = calloc(1, sizeof(*chip));
	if (!chip)
		return NULL;
	snprintf(chip->dir, sizeof(chip->dir), "%s", dir);
	chip->num_lines = (unsigned int)strtoul(text, NULL, 10);
	chip->lines = calloc(chip->num_lines ? chip->num_lines : 1, sizeof(*chip->lines));
	if (!chip->lines) {
		free(chip);
		return NULL;
	}
	return chip;
}

unsigned int gpiod_chip_num_lines(struct gpiod_chip *chip)
{
	return chip->num_lines;
}

struct gpiod_line *gpiod_chip_get_line(struct gpiod_chip *chip, unsigned int offset)
{
	if (offset >= chip->num_lines) {
		errno = EINVAL;
		return NULL;
	}
	if (chip->lines[offset])
		return chip->lines[offset];
	struct gpiod_line *line = calloc(1, sizeof(*line));
	if (!line)
		return NULL;
	line->chip = chip;
	line->offset = offset;
	line->fd = -1;
	char path[PATH_MAX], text[STANDIN_TEXT];
	snprintf(path, sizeof(path), "%s/names", chip->dir);
	FILE *names = fopen(path, "re");
	if (names) {
		for (unsigned int i = 0; i <= offset && fgets(text, sizeof(text), names); i++) {
			if (i == offset) {
				text[strcspn(text, "\n")] = '\0';
				snprintf(line->name, sizeof(line->name), "%s", text);
			}
		}
		fclose(names);
	}
	chip->lines[offset] = line;
	return line;
}

struct gpiod_line *gpiod_chip_find_line(struct gpiod_chip *chip, const char *name)
{
	for (unsigned int offset = 0; offset < chip->num_lines; offset++) {
		struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
		if (line && line->name[0] && strcmp(line->name, name) == 0)
			return line;
	}
	errno = ENOENT;
	return NULL;
}

const char *gpiod_line_name(struct gpiod_line *line)
{
	return line->name[0] ? line->name : NULL;
}

const char *gpiod_line_consumer(struct gpiod_line *line)
{
	char path[PATH_MAX];
	standin_path(path, line->chip, line->offset, "busy");
	if (line->state == STANDIN_FREE && standin_read(path, line->consumer, sizeof(line->consumer)) != 0)
		return NULL;
	return line->consumer;
}

/* Claims the line and records the request; EBUSY when held by anyone. */
static int standin_request(struct gpiod_line *line, const char *consumer, int flags, enum standin_state state)
{
	char path[PATH_MAX];
	standin_path(path, line->chip, line->offset, "busy");
	if (line->state != STANDIN_FREE || access(path, F_OK) == 0) {
		errno = EBUSY;
		return -1;
	}
	if (state == STANDIN_INPUT) {
		standin_path(path, line->chip, line->offset, "edges");
		if (mkfifo(path, 0600) != 0 && errno != EEXIST)
			return -1;
		line->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (line->fd < 0)
			return -1;
	}
	const char *bias = flags & GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE ? "disable"
		: flags & GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP ? "pull-up"
		: flags & GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN ? "pull-down" : "as-is";
	char text[4 * STANDIN_TEXT];
	snprintf(text, sizeof(text), "consumer=%s\ndirection=%s\nactive-low=%d\nbias=%s\n", consumer ? consumer : "",
		 state == STANDIN_INPUT ? "input" : "output", (flags & GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) ? 1 : 0, bias);
	standin_path(path, line->chip, line->offset, "request");
	if (standin_replace(path, text) != 0) {
		if (line->fd >= 0)
			close(line->fd);
		line->fd = -1;
		return -1;
	}
	snprintf(line->consumer, sizeof(line->consumer), "%s", consumer ? consumer : "");
	line->flags = flags;
	line->state = state;
	return 0;
}

/* Drives the pin: the log first, so whoever sees the new value finds it logged. */
static int standin_drive(struct gpiod_line *line, int logical)
{
	int level = (logical != 0) ^ ((line->flags & GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) != 0);
	char path[PATH_MAX], text[4];
	snprintf(text, sizeof(text), "%d\n", level);
	standin_path(path, line->chip, line->offset, "log");
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int ok = write(fd, text, 2) == 2;
	close(fd);
	standin_path(path, line->chip, line->offset, "value");
	return ok ? standin_replace(path, text) : -1;
}

int gpiod_line_request_both_edges_events_flags(struct gpiod_line *line, const char *consumer, int flags)
{
	return standin_request(line, consumer, flags, STANDIN_INPUT);
}

int gpiod_line_request_output_flags(struct gpiod_line *line, const char *consumer, int flags, int default_val)
{
	if (standin_request(line, consumer, flags, STANDIN_OUTPUT) != 0)
		return -1;
	return standin_drive(line, default_val);
}

int gpiod_line_set_value(struct gpiod_line *line, int value)
{
	if (line->state != STANDIN_OUTPUT) {
		errno = EPERM;
		return -1;
	}
	return standin_drive(line, value);
}

void gpiod_line_release(struct gpiod_line *line)
{
	if (line->state == STANDIN_FREE)
		return;
	char path[PATH_MAX];
	standin_path(path, line->chip, line->offset, "request");
	unlink(path);
	if (line->fd >= 0)
		close(line->fd);
	line->fd = -1;
	line->state = STANDIN_FREE;
}

void gpiod_chip_close(struct gpiod_chip *chip)
{
	for (unsigned int offset = 0; offset < chip->num_lines; offset++) {
		if (chip->lines[offset]) {
			gpiod_line_release(chip->lines[offset]);
			free(chip->lines[offset]);
		}
	}
	free(chip->lines);
	free(chip);
}

int gpiod_line_event_get_fd(struct gpiod_line *line)
{
	if (line->state != STANDIN_INPUT) {
		errno = EPERM;
		return -1;
	}
	return line->fd;
}

/* Blocks until a whole record has arrived, as the real call blocks on the kernel's fd. */
int gpiod_line_event_read(struct gpiod_line *line, struct gpiod_line_event *event)
{
	if (line->state != STANDIN_INPUT) {
		errno = EPERM;
		return -1;
	}
	char record[STANDIN_RECORD_SIZE + 1];
	size_t have = 0;
	while (have < STANDIN_RECORD_SIZE) {
		ssize_t count = read(line->fd, record + have, STANDIN_RECORD_SIZE - have);
		if (count > 0) {
			have += (size_t)count;
		} else if (count < 0 && errno == EAGAIN) {
			struct pollfd waiting = { .fd = line->fd, .events = POLLIN };
			if (poll(&waiting, 1, -1) < 0 && errno != EINTR)
				return -1;
		} else if (count < 0 && errno != EINTR) {
			return -1;
		}
	}
	record[STANDIN_RECORD_SIZE] = '\0';
	if ((record[0] != 'R' && record[0] != 'F') || record[1] != ' ' || record[STANDIN_RECORD_SIZE - 1] != '\n'
	    || !isdigit((unsigned char)record[2])) {
		errno = EIO;
		return -1;
	}
	unsigned long long nanoseconds = strtoull(record + 2, NULL, 10);
	int rising = record[0] == 'R';
	if (line->flags & GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW)
		rising = !rising;
	event->event_type = rising ? GPIOD_LINE_EVENT_RISING_EDGE : GPIOD_LINE_EVENT_FALLING_EDGE;
	event->ts.tv_sec = (time_t)(nanoseconds / 1000000000ULL);
	event->ts.tv_nsec = (long)(nanoseconds % 1000000000ULL);
	return 0;
}

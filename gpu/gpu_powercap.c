/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU energy from powercap/RAPL: the package and dram zones' energy_uj counters, which wrap
 * at max_energy_range_uj (the wrap is the slicer's, jsg_counter_delta). Absent (no powercap,
 * a kernel without RAPL, a virtual machine): no zones, and the status says why.
 */
#include "config.h"

#include "jsgpu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a small decimal file of the zone (energy_uj, max_energy_range_uj, name) */
static int read_small(int dirfd, const char *zone, const char *file, char *buf, size_t len)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/%s", zone, file);
    int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, len - 1);
    int e = errno;
    close(fd);
    if (n < 0)
        return -e;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int read_u64(int dirfd, const char *zone, const char *file, uint64_t *v)
{
    char buf[32], *end;
    int rc = read_small(dirfd, zone, file, buf, sizeof(buf));
    if (rc != 0)
        return rc;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (errno != 0 || end == buf || *end != '\0')
        return -EINVAL;
    *v = x;
    return 0;
}

/* intel-rapl:N (a package) and intel-rapl:N:M (its sub-zones); not intel-rapl-mmio:N,
 * which measures the same package again through MMIO */
static int rapl_dir(const char *name)
{
    return strncmp(name, "intel-rapl:", 11) == 0;
}

static int by_dir(const void *a, const void *b)
{
    return strcmp(((const struct jsg_zone *)a)->dir, ((const struct jsg_zone *)b)->dir);
}

/* one candidate zone: kept when it is a package or dram zone that can be read */
static void consider(struct jsg_powercap *pc, const char *dir, int *unreadable)
{
    struct jsg_zone *z = &pc->zone[pc->nzone];
    char name[32];
    if (read_small(pc->dirfd, dir, "name", name, sizeof(name)) != 0)
        return;
    if (strncmp(name, "package-", 8) != 0 && strcmp(name, "dram") != 0)
        return;
    uint64_t v;
    int rc = read_u64(pc->dirfd, dir, "energy_uj", &v);
    if (rc == -EACCES || rc == -EPERM) {
        (*unreadable)++; /* root's alone since Linux 5.10 */
        return;
    }
    if (rc != 0 || read_u64(pc->dirfd, dir, "max_energy_range_uj", &z->max_uj) != 0)
        return;
    snprintf(z->dir, sizeof(z->dir), "%s", dir);
    snprintf(z->name, sizeof(z->name), "%s", name);
    pc->nzone++;
}

int jsg_powercap_open(struct jsg_powercap *pc, const char *root)
{
    memset(pc, 0, sizeof(*pc));
    if (root == NULL || *root == '\0')
        root = JSG_DEFAULT_POWERCAP;
    pc->dirfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pc->dirfd < 0) {
        snprintf(pc->status, sizeof(pc->status), "no CPU energy: %s: %s", root, strerror(errno));
        return 0;
    }
    int fd = dup(pc->dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        if (fd >= 0)
            close(fd);
        snprintf(pc->status, sizeof(pc->status), "no CPU energy: %s: %s", root, strerror(errno));
        return 0;
    }
    int unreadable = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && pc->nzone < JSG_MAX_ZONES)
        if (rapl_dir(e->d_name) && strlen(e->d_name) < sizeof(pc->zone[0].dir))
            consider(pc, e->d_name, &unreadable);
    closedir(d);
    qsort(pc->zone, (size_t)pc->nzone, sizeof(pc->zone[0]), by_dir);
    if (pc->nzone > 0)
        snprintf(pc->status, sizeof(pc->status), "ok");
    else if (unreadable > 0)
        snprintf(pc->status, sizeof(pc->status),
                 "no CPU energy: %s: energy_uj is readable by root only", root);
    else
        snprintf(pc->status, sizeof(pc->status), "no CPU energy: %s has no RAPL package zone",
                 root);
    return pc->nzone;
}

void jsg_powercap_read(struct jsg_powercap *pc, struct jsg_tick *tick)
{
    tick->nzone = pc->nzone;
    for (int i = 0; i < pc->nzone; i++) {
        struct jsg_zone_reading *r = &tick->zone[i];
        r->max_uj = pc->zone[i].max_uj;
        r->have = read_u64(pc->dirfd, pc->zone[i].dir, "energy_uj", &r->energy_uj) == 0;
    }
}

void jsg_powercap_close(struct jsg_powercap *pc)
{
    if (pc->dirfd >= 0)
        close(pc->dirfd);
    pc->dirfd = -1;
    pc->nzone = 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* profile_ingest --setup-roles: the database, the ingest's owner role, jobscreen_report and the
 * web CGI's role, each created when absent, and the schema migrated as the owner
 * (docs/reports.md, "Roles"). */
#ifndef PI_SETUP_H
#define PI_SETUP_H

/* the service user of contrib/systemd/profile_ingest.service, so that peer authentication works */
#define PI_SETUP_OWNER_DEFAULT "jobscreen"
/* the user jobscreen-fcgi.service and Debian's web servers run the CGI as */
#define PI_SETUP_WEB_ROLE_DEFAULT "www-data"
/* the database when the connection string names none */
#define PI_SETUP_DBNAME_DEFAULT "jobscreen"

/* Run the steps on the server conninfo names, as its role (a superuser, or a role with
 * CREATEROLE and CREATEDB); each says on stdout what it found or did.  The exit status: 0 when
 * everything is in place, 1 when a step failed (logged with PostgreSQL's error). */
int pi_setup_roles(const char *conninfo, const char *owner, const char *web_role);

#endif

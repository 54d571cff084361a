/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_DOCTOR_STATUS_RUNNING,   /* under way */
  MCP_DOCTOR_STATUS_PASS,      /* fine */
  MCP_DOCTOR_STATUS_WARN,      /* works, but something deserves a look */
  MCP_DOCTOR_STATUS_FAIL,      /* this is (one reason) why the server fails */
  MCP_DOCTOR_STATUS_SKIPPED,   /* not run: it does not apply, or an earlier check failed */
} McpDoctorStatus;

#define MCP_TYPE_DOCTOR_CHECK (mcp_doctor_check_get_type ())

G_DECLARE_FINAL_TYPE (McpDoctorCheck, mcp_doctor_check, MCP, DOCTOR_CHECK, GObject)

/**
 * McpDoctorCheck:
 *
 * One check of McpDoctor, immutable: a running check is replaced in the
 * doctor's model by its outcome. Properties: id (stable, for scripts:
 * "command", "tcp", "sign-in"…), title (translated), status, seen (what was
 * found, for a person, secrets masked; may be several lines), fix (what to
 * do, in plain words; NULL when there is nothing to do), duration (µs).
 */
McpDoctorCheck  *mcp_doctor_check_new          (const char      *id,
                                                const char      *title,
                                                McpDoctorStatus  status,
                                                const char      *seen,
                                                const char      *fix,
                                                gint64           duration);
const char      *mcp_doctor_check_get_id       (McpDoctorCheck  *self);
const char      *mcp_doctor_check_get_title    (McpDoctorCheck  *self);
McpDoctorStatus  mcp_doctor_check_get_status   (McpDoctorCheck  *self);
const char      *mcp_doctor_check_get_seen     (McpDoctorCheck  *self);
const char      *mcp_doctor_check_get_fix      (McpDoctorCheck  *self);
gint64           mcp_doctor_check_get_duration (McpDoctorCheck  *self);

/* "pass", "warn", "fail", "skipped", "running": for JSON output. */
const char      *mcp_doctor_status_to_string   (McpDoctorStatus  status);

G_END_DECLS

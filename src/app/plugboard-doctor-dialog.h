/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-doctor.h"
#include "mcp-server-connection.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_DOCTOR_DIALOG (plugboard_doctor_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardDoctorDialog, plugboard_doctor_dialog, PLUGBOARD, DOCTOR_DIALOG, AdwWindow)

/**
 * PlugboardDoctorDialog:
 *
 * The connection doctor of one server (McpDoctor): its checks as they
 * run and finish — a spinner, then an icon per outcome, what was seen
 * (selectable) and the fix — with Run Again and Copy Report. It starts a
 * run when shown; closing it cancels the run.
 */
PlugboardDoctorDialog *plugboard_doctor_dialog_new        (GtkWindow             *parent,
                                                           McpServerConnection   *connection);
McpDoctor             *plugboard_doctor_dialog_get_doctor (PlugboardDoctorDialog *self);

G_END_DECLS

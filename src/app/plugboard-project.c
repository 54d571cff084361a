/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-project.h. */
#include "config.h"

#include "plugboard-project.h"

/* Placeholder until the real type lands, so the window compiles. */
struct _PlugboardProject
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardProject, plugboard_project, G_TYPE_OBJECT)

static void
plugboard_project_class_init (PlugboardProjectClass *klass)
{
}

static void
plugboard_project_init (PlugboardProject *self)
{
}


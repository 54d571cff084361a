/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-websocket"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include <libsoup/soup.h>

#include "mcp-message.h"
#include "mcp-websocket-transport.h"

/* WebSocket messages from a server, through McpWebsocketTransport: a real
 * SoupServer on 127.0.0.1 in this process accepts the connection and sends
 * the input as frames, then closes.
 *
 * The input is frames split by lines "====". A frame that begins "B:" is
 * sent as a binary frame (the rest of it); one that begins "CLOSE " ends
 * the connection with the number after it as the close code (1000 to
 * 4999) and the rest of the line as the reason; others are text frames.
 * Without a CLOSE the server closes with 1000 after the last frame.
 *
 * Checks: the transport connects, emits a message or an invalid line for
 * the frames it gets (an invalid line always with a UTF-8 text and an
 * error), and ends with exactly one "closed" whose error, if any, has a
 * UTF-8 message; messages it emits are whole. Warnings and criticals are
 * fatal. */

#define SEPARATOR "\n====\n"

static SoupServer *server;
static char *url;
static char **frames;

typedef struct
{
  guint     messages;
  guint     invalid;
  guint     closed;
  gboolean  connected;
  gboolean  connect_done;
} State;

static void
fail (const char *what)
{
  g_printerr ("fuzz-websocket: %s\n", what);
  abort ();
}

static void
websocket_cb (SoupServer              *soup_server,
              SoupServerMessage       *message,
              const char              *path,
              SoupWebsocketConnection *connection,
              gpointer                 user_data)
{
  gushort code = SOUP_WEBSOCKET_CLOSE_NORMAL;
  const char *reason = NULL;

  for (guint i = 0; frames != NULL && frames[i] != NULL; i++)
    {
      const char *frame = frames[i];

      if (g_str_has_prefix (frame, "CLOSE "))
        {
          char *end = NULL;
          guint64 value = g_ascii_strtoull (frame + 6, &end, 10);

          if (value >= 1000 && value <= 4999 && value != 1005 && value != 1006 && value != 1015)
            code = (gushort) value;
          reason = end != NULL && *end == ' ' ? end + 1 : NULL;
          break;
        }
      /* libsoup sends no text frame that is not UTF-8 (it says so as a
       * critical): such a frame goes as a binary one */
      if (g_str_has_prefix (frame, "B:"))
        soup_websocket_connection_send_binary (connection, frame + 2, strlen (frame + 2));
      else if (!g_utf8_validate (frame, -1, NULL))
        soup_websocket_connection_send_binary (connection, frame, strlen (frame));
      else
        soup_websocket_connection_send_text (connection, frame);
    }

  /* a close reason must be UTF-8 and fit a control frame */
  if (reason != NULL && (strlen (reason) > 120 || !g_utf8_validate (reason, -1, NULL)))
    reason = NULL;
  soup_websocket_connection_close (connection, code, reason);
}

static void
set_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;

  if (server != NULL)
    return;

  fuzz_abort_on_warnings ();

  server = soup_server_new (NULL, NULL);
  soup_server_add_websocket_handler (server, "/ws", NULL, (char *[]) { (char *) "mcp", NULL },
                                     websocket_cb, NULL, NULL);
  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      g_printerr ("fuzz-websocket: cannot listen: %s\n", error->message);
      abort ();
    }
  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("ws://127.0.0.1:%d/ws", g_uri_get_port (uris->data));
}

static void
message_cb (McpTransport *transport,
            McpMessage   *message,
            State        *state)
{
  g_autofree char *text = mcp_message_to_string (message, NULL);

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    fail ("a message that does not write as UTF-8");
  state->messages++;
}

static void
invalid_line_cb (McpTransport *transport,
                 const char   *line,
                 const GError *error,
                 State        *state)
{
  if (line == NULL || !g_utf8_validate (line, -1, NULL))
    fail ("an invalid line that is not UTF-8");
  if (error == NULL || error->message == NULL || !g_utf8_validate (error->message, -1, NULL))
    fail ("an invalid line without an error");
  state->invalid++;
}

static void
closed_cb (McpTransport *transport,
           const GError *error,
           State        *state)
{
  if (error != NULL && (error->message == NULL || !g_utf8_validate (error->message, -1, NULL)))
    fail ("a close error that is not UTF-8");
  state->closed++;
}

static void
connected_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  State *state = user_data;
  g_autoptr(GError) error = NULL;

  state->connected = mcp_transport_connect_finish (MCP_TRANSPORT (object), result, &error);
  state->connect_done = TRUE;
  if (error != NULL && g_getenv ("FUZZ_VERBOSE") != NULL)
    g_printerr ("fuzz-websocket: connect: %s\n", error->message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_autoptr(McpTransport) transport = NULL;
  State state = { 0 };
  gint64 deadline;

  if (memchr (data, '\0', size) != NULL)
    return 0;

  set_up ();

  text = g_strndup ((const char *) data, size);
  frames = g_strsplit (text, SEPARATOR, 64);

  transport = mcp_websocket_transport_new (url, NULL, NULL);
  mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (transport), 5000);
  g_signal_connect (transport, "message", G_CALLBACK (message_cb), &state);
  g_signal_connect (transport, "invalid-line", G_CALLBACK (invalid_line_cb), &state);
  g_signal_connect (transport, "closed", G_CALLBACK (closed_cb), &state);
  mcp_transport_connect_async (transport, NULL, connected_cb, &state);

  deadline = g_get_monotonic_time () + 8 * G_USEC_PER_SEC;
  while ((!state.connect_done || (state.connected && state.closed == 0)) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  if (!state.connected)
    fail ("no connection to the loopback server");
  if (state.closed != 1)
    fail ("not closed once");
  if (state.messages + state.invalid > 64)
    fail ("more messages than frames");

  g_signal_handlers_disconnect_by_data (transport, &state);
  g_clear_pointer (&frames, g_strfreev);

  return 0;
}

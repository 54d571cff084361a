/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A minimal, fast Streamable HTTP MCP server for the benchmarks: plain C on
 * plain sockets (no GLib, no libsoup), one thread, epoll, keep-alive
 * HTTP/1.1 connections, a hand-written scan of each body's top-level "id"
 * and "method", and each response written with one write(). Plain sockets
 * rather than SoupServer so that the server's own cost stays small next to
 * the clients being measured.
 *
 *   mcp-http-echo-server [--port N]
 *
 * Listens on 127.0.0.1:N (0, the default, picks a free port), then prints
 * "listening on http://127.0.0.1:PORT/mcp" on stdout and serves until it
 * gets SIGTERM or SIGINT or its stdin reaches end of file.
 *
 *   POST /mcp initialize      200 JSON result and a new Mcp-Session-Id
 *   POST /mcp notification    202, no body
 *   POST /mcp tools/list      200 JSON, one "echo" tool
 *   POST /mcp tools/call      200 JSON, always the text "hello", the request's id
 *   POST /mcp ping            200 JSON, empty result
 *   GET /mcp                  405 (no server-initiated stream)
 *   DELETE /mcp               200, ends the session
 *
 * A request other than initialize must carry an Mcp-Session-Id this server
 * issued (400 without one, 404 for an unknown one).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "echo-scan.h"

#define MAX_HEADER_SIZE   (16 * 1024)
#define MAX_BODY_SIZE     (4 * 1024 * 1024)
#define MAX_ID_SIZE       256
#define MAX_SESSIONS      256
#define SESSION_ID_SIZE   32
#define READ_CHUNK        (64 * 1024)
#define MAX_EVENTS        64

/* Must stay byte for byte what bench-http.c's raw client expects. */
#define CALL_RESULT "{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}"

#define INITIALIZE_RESULT \
  "{\"protocolVersion\":\"2025-11-25\"," \
  "\"capabilities\":{\"tools\":{}}," \
  "\"serverInfo\":{\"name\":\"mcp-http-echo-server\",\"version\":\"1.0.0\"}}"

#define PARSE_ERROR \
  "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"

#define TOOLS_LIST_RESULT \
  "{\"tools\":[{\"name\":\"echo\"," \
  "\"description\":\"Answers every call with the text hello\"," \
  "\"inputSchema\":{\"type\":\"object\"," \
  "\"properties\":{\"message\":{\"type\":\"string\"}}," \
  "\"required\":[\"message\"]}}]}"

typedef struct
{
  int     fd;
  char   *in;
  size_t  in_len;
  size_t  in_size;
  char   *out;
  size_t  out_len;
  size_t  out_size;
  int     closing;   /* close once out is flushed */
  int     polling_out;
} Connection;

static char sessions[MAX_SESSIONS][SESSION_ID_SIZE + 1];
static unsigned long session_counter;
static volatile sig_atomic_t stop_requested;

static void
on_signal (int signum)
{
  stop_requested = 1;
}

/* ---- sessions ----------------------------------------------------------- */

static const char *
session_new (void)
{
  for (int i = 0; i < MAX_SESSIONS; i++)
    if (sessions[i][0] == '\0')
      {
        snprintf (sessions[i], sizeof sessions[i], "echo-%08lx-%08lx",
                  ++session_counter, (unsigned long) random ());
        return sessions[i];
      }

  return NULL;
}

static int
session_find (const char *id,
              size_t      len)
{
  for (int i = 0; i < MAX_SESSIONS; i++)
    if (sessions[i][0] != '\0' && strlen (sessions[i]) == len &&
        memcmp (sessions[i], id, len) == 0)
      return i;

  return -1;
}

/* ---- output ------------------------------------------------------------- */

static int
out_append (Connection *conn,
            const char *data,
            size_t      len)
{
  if (conn->out_len + len > conn->out_size)
    {
      size_t size = conn->out_size ? conn->out_size : 4096;
      char *bigger;

      while (size < conn->out_len + len)
        size *= 2;
      bigger = realloc (conn->out, size);
      if (bigger == NULL)
        return -1;
      conn->out = bigger;
      conn->out_size = size;
    }

  memcpy (conn->out + conn->out_len, data, len);
  conn->out_len += len;
  return 0;
}

static int
respond (Connection *conn,
         int         status,
         const char *reason,
         const char *extra_headers,
         const char *body,
         size_t      body_len)
{
  char head[512];
  int n;

  n = snprintf (head, sizeof head,
                "HTTP/1.1 %d %s\r\n"
                "%s"
                "%s"
                "Content-Length: %zu\r\n"
                "%s"
                "\r\n",
                status, reason,
                body_len > 0 ? "Content-Type: application/json\r\n" : "",
                extra_headers != NULL ? extra_headers : "",
                body_len,
                conn->closing ? "Connection: close\r\n" : "");
  if (n < 0 || (size_t) n >= sizeof head)
    return -1;

  if (out_append (conn, head, (size_t) n) < 0 || out_append (conn, body, body_len) < 0)
    return -1;
  return 0;
}

static int
respond_jsonrpc (Connection *conn,
                 const char *extra_headers,
                 const char *id,
                 size_t      id_len,
                 const char *member)
{
  char body[4096];
  int n;

  n = snprintf (body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%.*s,%s}",
                (int) id_len, id, member);
  if (n < 0 || (size_t) n >= sizeof body)
    return -1;

  return respond (conn, 200, "OK", extra_headers, body, (size_t) n);
}

static int
respond_error (Connection *conn,
               int         status,
               const char *reason,
               const char *message)
{
  char body[512];
  int n;

  n = snprintf (body, sizeof body,
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"%s\"}}",
                message);
  if (n < 0 || (size_t) n >= sizeof body)
    return -1;

  return respond (conn, status, reason, NULL, body, (size_t) n);
}

/* ---- one HTTP request ---------------------------------------------------- */

typedef struct
{
  const char *method;
  size_t      method_len;
  const char *path;
  size_t      path_len;
  const char *session_id;
  size_t      session_id_len;
  size_t      content_length;
  int         has_content_length;
  int         chunked;
  int         close;
} HttpHead;

static int
token_is (const char *p,
          size_t      len,
          const char *word)
{
  return strlen (word) == len && memcmp (p, word, len) == 0;
}

static int
header_is (const char *name,
           size_t      len,
           const char *word)
{
  return strlen (word) == len && strncasecmp (name, word, len) == 0;
}

/* Parses the request line and headers in [start, end), end at the blank
 * line. Returns 0 or -1 for a malformed head. */
static int
parse_head (const char *start,
            const char *end,
            HttpHead   *head)
{
  const char *line_end = memchr (start, '\r', (size_t) (end - start));
  const char *sp1, *sp2;
  const char *p;

  memset (head, 0, sizeof *head);

  if (line_end == NULL)
    return -1;
  sp1 = memchr (start, ' ', (size_t) (line_end - start));
  if (sp1 == NULL)
    return -1;
  sp2 = memchr (sp1 + 1, ' ', (size_t) (line_end - sp1 - 1));
  if (sp2 == NULL)
    return -1;
  head->method = start;
  head->method_len = (size_t) (sp1 - start);
  head->path = sp1 + 1;
  head->path_len = (size_t) (sp2 - sp1 - 1);
  if (token_is (sp2 + 1, (size_t) (line_end - sp2 - 1), "HTTP/1.0"))
    head->close = 1;

  for (p = line_end + 2; p < end; )
    {
      const char *eol = memchr (p, '\r', (size_t) (end - p));
      const char *colon;
      const char *value;
      size_t name_len, value_len;

      if (eol == NULL)
        eol = end;
      colon = memchr (p, ':', (size_t) (eol - p));
      if (colon == NULL)
        return -1;
      name_len = (size_t) (colon - p);
      value = colon + 1;
      while (value < eol && (*value == ' ' || *value == '\t'))
        value++;
      value_len = (size_t) (eol - value);
      while (value_len > 0 && (value[value_len - 1] == ' ' || value[value_len - 1] == '\t'))
        value_len--;

      if (header_is (p, name_len, "Content-Length"))
        {
          char *num_end;
          unsigned long long n;

          if (value_len == 0 || value_len > 12)
            return -1;
          n = strtoull (value, &num_end, 10);
          if (num_end != value + value_len)
            return -1;
          head->content_length = (size_t) n;
          head->has_content_length = 1;
        }
      else if (header_is (p, name_len, "Transfer-Encoding"))
        head->chunked = 1;
      else if (header_is (p, name_len, "Connection"))
        {
          if (value_len == 5 && strncasecmp (value, "close", 5) == 0)
            head->close = 1;
        }
      else if (header_is (p, name_len, "Mcp-Session-Id"))
        {
          head->session_id = value;
          head->session_id_len = value_len;
        }

      p = eol + 2;
    }

  return 0;
}

static int
handle_post (Connection     *conn,
             const HttpHead *head,
             const char     *body,
             size_t          body_len)
{
  EchoRequest request;
  char headers[128];

  if (echo_scan_request (body, body_len, &request) < 0)
    {
      fprintf (stderr, "mcp-http-echo-server: a POST body that is not a JSON object (%zu bytes)\n",
               body_len);
      return respond (conn, 400, "Bad Request", NULL, PARSE_ERROR, sizeof PARSE_ERROR - 1);
    }

  if (request.method != NULL && request.id != NULL && echo_method_is (&request, "initialize"))
    {
      const char *session = session_new ();

      if (session == NULL)
        return respond_error (conn, 503, "Service Unavailable", "Too many sessions");
      /* The precision tells gcc the id fits (with -fsanitize=undefined it
       * otherwise warns that it may be cut, and -Werror stops the build). */
      snprintf (headers, sizeof headers, "Mcp-Session-Id: %.*s\r\n", SESSION_ID_SIZE, session);
      return respond_jsonrpc (conn, headers, request.id, request.id_len,
                              "\"result\":" INITIALIZE_RESULT);
    }

  if (head->session_id == NULL)
    return respond_error (conn, 400, "Bad Request", "Missing Mcp-Session-Id header");
  if (session_find (head->session_id, head->session_id_len) < 0)
    return respond_error (conn, 404, "Not Found", "Session not found");

  /* A notification, or a response to a request we never send. */
  if (request.id == NULL || request.method == NULL)
    return respond (conn, 202, "Accepted", NULL, "", 0);

  if (request.id_len > MAX_ID_SIZE)
    return respond_error (conn, 400, "Bad Request", "Request id too long");

  if (echo_method_is (&request, "tools/call"))
    return respond_jsonrpc (conn, NULL, request.id, request.id_len, "\"result\":" CALL_RESULT);
  if (echo_method_is (&request, "tools/list"))
    return respond_jsonrpc (conn, NULL, request.id, request.id_len, "\"result\":" TOOLS_LIST_RESULT);
  if (echo_method_is (&request, "ping"))
    return respond_jsonrpc (conn, NULL, request.id, request.id_len, "\"result\":{}");

  return respond_jsonrpc (conn, NULL, request.id, request.id_len,
                          "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}");
}

static int
handle_request (Connection     *conn,
                const HttpHead *head,
                const char     *body,
                size_t          body_len)
{
  const char *path = head->path;
  size_t path_len = head->path_len;
  const char *query = memchr (path, '?', path_len);

  if (query != NULL)
    path_len = (size_t) (query - path);

  if (!token_is (path, path_len, "/mcp"))
    return respond_error (conn, 404, "Not Found", "No such endpoint; use /mcp");

  if (token_is (head->method, head->method_len, "POST"))
    return handle_post (conn, head, body, body_len);

  if (token_is (head->method, head->method_len, "GET"))
    return respond (conn, 405, "Method Not Allowed", "Allow: POST, DELETE\r\n", "", 0);

  if (token_is (head->method, head->method_len, "DELETE"))
    {
      int index;

      if (head->session_id == NULL)
        return respond_error (conn, 400, "Bad Request", "Missing Mcp-Session-Id header");
      index = session_find (head->session_id, head->session_id_len);
      if (index < 0)
        return respond_error (conn, 404, "Not Found", "Session not found");
      sessions[index][0] = '\0';
      return respond (conn, 200, "OK", NULL, "", 0);
    }

  return respond (conn, 405, "Method Not Allowed", "Allow: GET, POST, DELETE\r\n", "", 0);
}

/* Handles every whole request in conn->in. Returns -1 to drop the
 * connection at once. */
static int
process_input (Connection *conn)
{
  size_t start = 0;

  while (!conn->closing)
    {
      const char *base = conn->in + start;
      size_t avail = conn->in_len - start;
      const char *head_end = NULL;
      HttpHead head;
      size_t head_len;

      for (size_t i = 3; i < avail; i++)
        if (base[i] == '\n' && base[i - 1] == '\r' && base[i - 2] == '\n' && base[i - 3] == '\r')
          {
            head_end = base + i - 3;
            break;
          }

      if (head_end == NULL)
        {
          if (avail > MAX_HEADER_SIZE)
            {
              conn->closing = 1;
              if (respond_error (conn, 431, "Request Header Fields Too Large",
                                 "Request head too large") < 0)
                return -1;
            }
          break;
        }
      head_len = (size_t) (head_end - base) + 4;

      if (parse_head (base, head_end + 2, &head) < 0)
        {
          conn->closing = 1;
          if (respond_error (conn, 400, "Bad Request", "Malformed HTTP request head") < 0)
            return -1;
          break;
        }
      if (head.chunked)
        {
          conn->closing = 1;
          if (respond_error (conn, 411, "Length Required",
                             "Chunked bodies are not supported; send Content-Length") < 0)
            return -1;
          break;
        }
      if (head.content_length > MAX_BODY_SIZE)
        {
          conn->closing = 1;
          if (respond_error (conn, 413, "Content Too Large", "Request body too large") < 0)
            return -1;
          break;
        }
      if (avail < head_len + head.content_length)
        break;

      if (head.close)
        conn->closing = 1;
      if (handle_request (conn, &head, base + head_len, head.content_length) < 0)
        return -1;
      start += head_len + head.content_length;
    }

  if (start > 0)
    {
      memmove (conn->in, conn->in + start, conn->in_len - start);
      conn->in_len -= start;
    }

  return 0;
}

/* Returns -1 on a write error; 0 whether or not all was written. */
static int
flush_output (Connection *conn)
{
  size_t done = 0;

  while (done < conn->out_len)
    {
      ssize_t n = send (conn->fd, conn->out + done, conn->out_len - done, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      if (n < 0)
        return -1;
      done += (size_t) n;
    }

  if (done > 0)
    {
      memmove (conn->out, conn->out + done, conn->out_len - done);
      conn->out_len -= done;
    }

  return 0;
}

static void
connection_free (int         epfd,
                 Connection *conn)
{
  epoll_ctl (epfd, EPOLL_CTL_DEL, conn->fd, NULL);
  close (conn->fd);
  free (conn->in);
  free (conn->out);
  free (conn);
}

static void
connection_update_events (int         epfd,
                          Connection *conn)
{
  struct epoll_event ev = { 0 };
  int want_out = conn->out_len > 0;

  if (want_out == conn->polling_out)
    return;
  ev.events = EPOLLIN | (want_out ? EPOLLOUT : 0);
  ev.data.ptr = conn;
  epoll_ctl (epfd, EPOLL_CTL_MOD, conn->fd, &ev);
  conn->polling_out = want_out;
}

/* Returns -1 when the connection is done and must be freed. */
static int
connection_readable (Connection *conn)
{
  for (;;)
    {
      ssize_t n;

      if (conn->in_size - conn->in_len < READ_CHUNK)
        {
          size_t size = conn->in_size ? conn->in_size * 2 : 2 * READ_CHUNK;
          char *bigger;

          if (size > MAX_HEADER_SIZE + MAX_BODY_SIZE + 2 * READ_CHUNK)
            return -1;
          bigger = realloc (conn->in, size);
          if (bigger == NULL)
            return -1;
          conn->in = bigger;
          conn->in_size = size;
        }

      n = recv (conn->fd, conn->in + conn->in_len, conn->in_size - conn->in_len, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
      if (n <= 0)
        return -1;
      conn->in_len += (size_t) n;

      if (process_input (conn) < 0)
        return -1;
      /* Short read: the socket is drained for now. */
      if ((size_t) n < READ_CHUNK)
        return 0;
    }
}

static int
listen_on (int port)
{
  struct sockaddr_in addr = { 0 };
  socklen_t addr_len = sizeof addr;
  int one = 1;
  int fd;

  fd = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      perror ("mcp-http-echo-server: socket");
      return -1;
    }
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);

  addr.sin_family = AF_INET;
  addr.sin_port = htons ((unsigned short) port);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      fprintf (stderr, "mcp-http-echo-server: cannot listen on 127.0.0.1:%d: %s\n",
               port, strerror (errno));
      close (fd);
      return -1;
    }
  if (listen (fd, 128) < 0 ||
      getsockname (fd, (struct sockaddr *) &addr, &addr_len) < 0)
    {
      perror ("mcp-http-echo-server: listen");
      close (fd);
      return -1;
    }

  printf ("listening on http://127.0.0.1:%d/mcp\n", ntohs (addr.sin_port));
  fflush (stdout);
  return fd;
}

int
main (int   argc,
      char *argv[])
{
  struct epoll_event events[MAX_EVENTS];
  struct epoll_event ev = { 0 };
  struct sigaction sa = { 0 };
  int port = 0;
  int listen_fd, epfd;
  static int stdin_tag;

  if (argc == 3 && strcmp (argv[1], "--port") == 0)
    {
      char *end;
      long value = strtol (argv[2], &end, 10);

      if (*argv[2] == '\0' || *end != '\0' || value < 0 || value > 65535)
        {
          fprintf (stderr, "mcp-http-echo-server: --port needs a number from 0 to 65535, not '%s'\n",
                   argv[2]);
          return 2;
        }
      port = (int) value;
    }
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--port N]\n", argv[0]);
      return 2;
    }

  sa.sa_handler = on_signal;
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);
  signal (SIGPIPE, SIG_IGN);
  srandom ((unsigned int) getpid ());

  listen_fd = listen_on (port);
  if (listen_fd < 0)
    return 1;

  epfd = epoll_create1 (EPOLL_CLOEXEC);
  if (epfd < 0)
    {
      perror ("mcp-http-echo-server: epoll_create1");
      return 1;
    }
  ev.events = EPOLLIN;
  ev.data.ptr = NULL;
  epoll_ctl (epfd, EPOLL_CTL_ADD, listen_fd, &ev);
  /* The bench keeps our stdin open; its end means the bench is gone. */
  ev.events = EPOLLIN;
  ev.data.ptr = &stdin_tag;
  epoll_ctl (epfd, EPOLL_CTL_ADD, STDIN_FILENO, &ev);

  while (!stop_requested)
    {
      int n = epoll_wait (epfd, events, MAX_EVENTS, -1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          perror ("mcp-http-echo-server: epoll_wait");
          return 1;
        }

      for (int i = 0; i < n; i++)
        {
          Connection *conn = events[i].data.ptr;

          if (events[i].data.ptr == &stdin_tag)
            {
              char buf[256];
              ssize_t r = read (STDIN_FILENO, buf, sizeof buf);

              if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
                stop_requested = 1;
              continue;
            }

          if (conn == NULL)
            {
              for (;;)
                {
                  int fd = accept4 (listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                  int one = 1;
                  Connection *c;

                  if (fd < 0)
                    break;
                  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                  c = calloc (1, sizeof *c);
                  if (c == NULL)
                    {
                      close (fd);
                      continue;
                    }
                  c->fd = fd;
                  ev.events = EPOLLIN;
                  ev.data.ptr = c;
                  if (epoll_ctl (epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
                    {
                      close (fd);
                      free (c);
                    }
                }
              continue;
            }

          if ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) &&
              connection_readable (conn) < 0)
            {
              /* Answer what was complete, then go. */
              flush_output (conn);
              connection_free (epfd, conn);
              continue;
            }

          if (flush_output (conn) < 0 ||
              (conn->closing && conn->out_len == 0))
            {
              connection_free (epfd, conn);
              continue;
            }
          connection_update_events (epfd, conn);
        }
    }

  close (listen_fd);
  close (epfd);
  return 0;
}

package dev.ctk.envtest;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for etcd in tests with fake binaries: answers {@code GET /health} with {@code
 * {"health":"true"}} on the port of {@code --listen-client-urls=http://127.0.0.1:<port>} until it
 * is killed. Any other flag is ignored.
 */
public final class FakeEtcdMain {

  private FakeEtcdMain() {}

  public static void main(String[] args) throws IOException {
    URI client = null;
    for (String arg : args) {
      if (arg.startsWith("--listen-client-urls=")) {
        client = URI.create(arg.substring("--listen-client-urls=".length()));
      }
    }
    if (client == null) {
      System.out.println("fake etcd: no --listen-client-urls");
      System.exit(2);
    }
    HttpServer server =
        HttpServer.create(new InetSocketAddress(client.getHost(), client.getPort()), 0);
    server.createContext(
        "/health",
        exchange -> {
          byte[] body = "{\"health\":\"true\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    System.out.println("fake etcd serving " + client);
  }
}

package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP, a websocket watch the server ends has its connection closed as soon as the close frame is written, as
 * kube-apiserver closes it, even when the client never answers that frame. fabric8's client pauses its socket between
 * events and may never answer it; a connection kept open for the answer (Vert.x waits 10 s by default) kept a closed
 * fake in memory that long.
 *
 * <p>The client here is a plain socket that upgrades, then reads what the server sends and never writes again.
 */
class WebSocketWatchCloseTest {

  private static final String WATCH = "/api/v1/namespaces/default/configmaps?watch=true";
  /** A close frame with status 1000 (normal closure) and no reason: all the server sends on an empty watch. */
  private static final byte[] NORMAL_CLOSE = {(byte) 0x88, 0x02, 0x03, (byte) 0xE8};

  @Test
  void aWatchThatTimesOut_hasItsConnectionClosed_withoutTheClientsCloseFrame() throws Exception {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build();
        Socket socket = upgraded(cluster, WATCH + "&timeoutSeconds=1")) {
      byte[] received = readUntilClosed(socket, 5, "a watch with timeoutSeconds=1 began");

      assertThat(received).as("the bytes the server sent after the upgrade").containsExactly(NORMAL_CLOSE);
    }
  }

  @Test
  void aClosedFake_closesItsWatchConnections_withoutTheClientsCloseFrame() throws Exception {
    FakeCluster cluster = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build();
    try (Socket socket = upgraded(cluster, WATCH)) {
      CompletableFuture<Void> closed = CompletableFuture.runAsync(cluster::close);

      byte[] received = readUntilClosed(socket, 5, "the fake was closed");
      closed.get(5, TimeUnit.SECONDS);   // nor does the fake's close wait for that client

      assertThat(received).as("the bytes the server sent after the upgrade").containsExactly(NORMAL_CLOSE);
    } finally {
      cluster.close();
    }
  }

  /** A socket upgraded to a websocket on {@code pathAndQuery}, its handshake answer read, nothing else. */
  private static Socket upgraded(FakeCluster cluster, String pathAndQuery) throws IOException {
    URI url = URI.create(cluster.url());
    Socket socket = new Socket(url.getHost(), url.getPort());
    try {
      socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\n"
          + "Host: " + url.getHost() + ":" + url.getPort() + "\r\n"
          + "Upgrade: websocket\r\n"
          + "Connection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      socket.setSoTimeout(5_000);
      String head = readHead(socket.getInputStream());
      assertThat(head).as("the upgrade's answer").startsWith("HTTP/1.1 101");
      return socket;
    } catch (IOException | RuntimeException | AssertionError e) {
      socket.close();
      throw e;
    }
  }

  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        fail("the connection ended inside the upgrade's answer: " + head);
      }
      head.append((char) b);
    }
    return head.toString();
  }

  /** Everything the server sends until it closes the connection, which must happen within {@code seconds}. */
  private static byte[] readUntilClosed(Socket socket, int seconds, String after) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    InputStream in = socket.getInputStream();
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        fail("the server still held the connection " + seconds + " s after " + after + "; received "
            + received.size() + " bytes");
      }
      socket.setSoTimeout((int) left);
      int n;
      try {
        n = in.read(buffer);
      } catch (SocketTimeoutException e) {
        continue;   // the deadline check above fails the test
      }
      if (n < 0) {
        return received.toByteArray();
      }
      received.write(buffer, 0, n);
    }
  }
}

package dev.ctk.fake.internal.http;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.net.BindException;
import java.util.HashSet;
import java.util.Set;

/**
 * The two Vert.x instances of this JVM's HTTP fakes: one that every {@link FakeHttpServer} listens on, one for the
 * fabric8 clients ctk builds over HTTP. Each is created at first use, runs on daemon threads and is never closed:
 * starting and stopping a Vert.x instance (its event-loop threads) was most of an HTTP fake's setup, about 3 ms a
 * server and as much a client. Servers and clients are kept apart, so that a client's I/O never waits behind a
 * server's event loop.
 *
 * <p>Vert.x lets two servers of one instance listen on the same host and port (it shares the socket and balances
 * connections between them); two fakes must not, so {@link #claim} refuses a host and port another fake of this JVM
 * holds, as the operating system refuses a socket bound twice.
 */
public final class SharedVertx {

  /** What a port another fake of this JVM holds is refused with. */
  public static final String IN_USE_BY_A_FAKE = "Address already in use by another fake cluster of this JVM";

  private static final Set<String> CLAIMED = new HashSet<>();
  private static Vertx servers;
  private static Vertx clients;

  private SharedVertx() {}

  /** The instance HTTP fakes listen on. */
  static synchronized Vertx servers() {
    if (servers == null) {
      servers = create(1);   // the fake's handlers never block: no worker is used
    }
    return servers;
  }

  /**
   * The instance ctk's HTTP clients run on.
   *
   * @return the instance, created at the first call
   */
  public static synchronized Vertx clients() {
    if (clients == null) {
      clients = create(VertxOptions.DEFAULT_WORKER_POOL_SIZE);   // fabric8 streams uploads on workers
    }
    return clients;
  }

  /** An instance on daemon threads; {@code workers} worker threads at most (started as needed). */
  private static Vertx create(int workers) {
    return Vertx.vertx(new VertxOptions()
        .setEventLoopPoolSize(Math.max(2, Runtime.getRuntime().availableProcessors()))
        .setWorkerPoolSize(workers)
        .setInternalBlockingPoolSize(1)
        .setUseDaemonThread(true)
        .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
            .setClassPathResolvingEnabled(false)));
  }

  /**
   * Reserves an explicit port before a fake listens on it.
   *
   * @param host the host to listen on
   * @param port the port, not 0
   * @throws BindException when another fake of this JVM listens there
   */
  static synchronized void claim(String host, int port) throws BindException {
    if (!CLAIMED.add(host + ":" + port)) {
      throw new BindException(IN_USE_BY_A_FAKE);
    }
  }

  /** Records the port a fake listens on (after binding port 0), so that no other fake shares it. */
  static synchronized void claimed(String host, int port) {
    CLAIMED.add(host + ":" + port);
  }

  /** Frees a port once its fake stopped listening. */
  static synchronized void release(String host, int port) {
    CLAIMED.remove(host + ":" + port);
  }
}

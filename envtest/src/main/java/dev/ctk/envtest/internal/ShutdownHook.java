package dev.ctk.envtest.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM shutdown hook that closes every server still registered when the JVM exits normally
 * (end of {@code main}, {@code System.exit}, SIGTERM, Ctrl-C). A JVM killed with SIGKILL runs no
 * hook: then the watchdog of {@link ChildProcess} stops the binaries.
 *
 * <pre>{@code
 * ShutdownHook.register(server);   // at start
 * ShutdownHook.deregister(server); // at close
 * }</pre>
 */
public final class ShutdownHook {

  private static final Logger LOG = LoggerFactory.getLogger(ShutdownHook.class);
  private static final Set<AutoCloseable> OPEN = ConcurrentHashMap.newKeySet();
  private static boolean installed;

  private ShutdownHook() {}

  /**
   * Closes {@code server} at JVM exit unless it was deregistered before.
   *
   * @param server a server that is starting or running
   */
  public static void register(AutoCloseable server) {
    install();
    OPEN.add(server);
  }

  /**
   * Forgets {@code server} (it was closed).
   *
   * @param server a registered server
   */
  public static void deregister(AutoCloseable server) {
    OPEN.remove(server);
  }

  private static synchronized void install() {
    if (installed) {
      return;
    }
    try {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ShutdownHook::closeAll, "ctk-envtest-shutdown"));
      installed = true;
    } catch (IllegalStateException e) {
      LOG.debug("JVM is already shutting down; no hook installed", e);
    }
  }

  private static void closeAll() {
    List<AutoCloseable> servers = new ArrayList<>(OPEN);
    for (AutoCloseable server : servers) {
      try {
        server.close();
      } catch (Exception e) {
        LOG.warn("could not close {} at JVM exit", server, e);
      }
    }
  }
}

package dev.ctk.fake.launcher;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.internal.http.ListenException;
import dev.ctk.fake.values.FakeClusterException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs ctk's fake Kubernetes API server as a standalone process, for kubectl and for controllers not written in
 * Java.
 *
 * <pre>
 * java -jar fake-client/target/ctk-fake-apiserver.jar --port 8080 [--host 127.0.0.1]
 *      [--kubeconfig PATH] [--seed FILE]...
 * export KUBECONFIG=$PWD/ctk-fake.kubeconfig
 * kubectl get namespaces
 * </pre>
 *
 * <p>Serves plain HTTP (no TLS, no authentication), writes a kubeconfig (default {@code ./ctk-fake.kubeconfig}),
 * prints one line with the URL, the kubeconfig path and the {@code export KUBECONFIG=...} command, and runs until
 * SIGINT or SIGTERM, when a shutdown hook stops the server cleanly. Exit codes: 0 after {@code --help}, 2 for a
 * usage error, a port in use or a host it cannot listen on, 1 when seeding fails.
 *
 * @since 0.1.0
 */
public final class FakeApiServerMain {

  /** Exit code for bad arguments, a port in use, or a host this machine cannot listen on. */
  public static final int EXIT_USAGE = 2;
  /** Exit code when the cluster cannot start for another reason (bad seed file, ...). */
  public static final int EXIT_FAILURE = 1;

  static final String USAGE = String.join("\n",
      "Usage: java -jar ctk-fake-apiserver.jar [--port PORT] [--host HOST] [--kubeconfig PATH] [--seed FILE]...",
      "",
      "Runs ctk's fake Kubernetes API server over plain HTTP until SIGINT/SIGTERM.",
      "",
      "  --port PORT        port to listen on (default 8080; 0 picks a free port)",
      "  --host HOST        interface to bind (default 127.0.0.1)",
      "  --kubeconfig PATH  where to write the kubeconfig (default ./ctk-fake.kubeconfig)",
      "  --seed FILE        YAML file to load at start (repeatable; CRDs and Namespaces are created first)",
      "  --help             print this help",
      "");

  private FakeApiServerMain() {}

  /**
   * Starts the server and blocks until the process is asked to stop.
   *
   * @param args command-line arguments, see the class documentation
   */
  public static void main(String[] args) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    // The shutdown hook is registered before the "listening" line is printed: whoever reads that line and sends
    // SIGTERM at once must find a process ready to stop cleanly.
    Launch launch = launch(args, System.out, System.err, cluster -> Runtime.getRuntime().addShutdownHook(
        new Thread(() -> {
          cluster.close();
          stopped.countDown();
        }, "ctk-fake-apiserver-shutdown")));
    if (launch.cluster() == null) {
      System.exit(launch.exitCode());
      return;
    }
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Parses arguments and starts the cluster, without blocking or exiting.
   *
   * @param args command-line arguments
   * @param out where the "listening" line goes
   * @param err where errors go
   * @return the running cluster, or none and the exit code to use
   */
  static Launch launch(String[] args, PrintStream out, PrintStream err) {
    return launch(args, out, err, cluster -> { });
  }

  /**
   * Parses arguments and starts the cluster, without blocking or exiting.
   *
   * @param args command-line arguments
   * @param out where the "listening" line goes
   * @param err where errors go
   * @param beforeAnnounce runs once the cluster is up, before the "listening" line is printed
   * @return the running cluster, or none and the exit code to use
   */
  static Launch launch(String[] args, PrintStream out, PrintStream err,
      java.util.function.Consumer<FakeCluster> beforeAnnounce) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("ctk-fake-apiserver: " + e.getMessage());
      err.print(USAGE);
      return new Launch(null, EXIT_USAGE);
    }
    if (options.help) {
      out.print(USAGE);
      return new Launch(null, 0);
    }
    FakeCluster.Builder builder = FakeCluster.builder().withHost(options.host).withPort(options.port);
    FakeCluster cluster;
    try {
      for (Path seed : options.seeds) {
        builder.withYaml(seed);
      }
      cluster = builder.build();
    } catch (FakeClusterException e) {
      if (e.getCause() instanceof ListenException listen) {
        if (listen.addressInUse()) {
          err.println("ctk-fake-apiserver: cannot listen on " + options.host + ":" + options.port
              + ": the address is already in use (another process holds the port). Choose another --port, or "
              + "--port 0 for a free one.");
        } else {
          err.println("ctk-fake-apiserver: cannot listen on " + options.host + ":" + options.port + ": "
              + listen.getMessage() + ". The host \"" + options.host + "\" is not an address of this machine (or "
              + "does not resolve). Choose another --host: 127.0.0.1 (the default), localhost, or 0.0.0.0 for "
              + "every interface.");
        }
        return new Launch(null, EXIT_USAGE);
      }
      err.println("ctk-fake-apiserver: " + e.getMessage());
      return new Launch(null, EXIT_FAILURE);
    }
    Path kubeconfig;
    try {
      kubeconfig = cluster.writeKubeconfig(options.kubeconfig).toAbsolutePath();
    } catch (FakeClusterException e) {
      cluster.close();
      err.println("ctk-fake-apiserver: " + e.getMessage());
      return new Launch(null, EXIT_FAILURE);
    }
    beforeAnnounce.accept(cluster);
    out.println("ctk fake API server listening on " + cluster.url() + "; kubeconfig: " + kubeconfig
        + "; run: export KUBECONFIG=" + kubeconfig);
    out.flush();
    return new Launch(cluster, 0);
  }

  /** The outcome of {@link #launch}: a running cluster, or an exit code. */
  record Launch(FakeCluster cluster, int exitCode) {
  }

  private static final class Options {
    int port = 8080;
    String host = "127.0.0.1";
    Path kubeconfig = Path.of("ctk-fake.kubeconfig");
    final List<Path> seeds = new ArrayList<>();
    boolean help;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        String value = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          value = arg.substring(eq + 1);
          arg = arg.substring(0, eq);
        }
        switch (arg) {
          case "--help", "-h" -> o.help = true;
          case "--port" -> {
            String v = value != null ? value : next(args, ++i, arg);
            try {
              o.port = Integer.parseInt(v);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("--port needs a number between 0 and 65535, got \"" + v + "\"");
            }
            if (o.port < 0 || o.port > 65_535) {
              throw new IllegalArgumentException("--port needs a number between 0 and 65535, got " + o.port);
            }
          }
          case "--host" -> o.host = value != null ? value : next(args, ++i, arg);
          case "--kubeconfig" -> o.kubeconfig = Path.of(value != null ? value : next(args, ++i, arg));
          case "--seed" -> o.seeds.add(Path.of(value != null ? value : next(args, ++i, arg)));
          default -> throw new IllegalArgumentException("unknown argument \"" + args[i] + "\"");
        }
      }
      return o;
    }

    private static String next(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }
  }
}

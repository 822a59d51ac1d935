package dev.ctk.envtest.internal;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * Where Testcontainers looks for Docker (its environment variable, its settings file, the default
 * socket, the rootless and Docker Desktop sockets) and what is there, for the message when it
 * finds nothing usable. Tests pass their own environment.
 *
 * <pre>{@code
 * String message = ContainerDockerSearch.current().unreachableMessage(testcontainersMessage);
 * }</pre>
 *
 * @param env environment variables
 * @param home the user's home folder
 * @param tcHost {@code tc.host} from {@code ~/.testcontainers.properties}, or null
 * @param defaultSocket the system socket, {@code /var/run/docker.sock}
 */
public record ContainerDockerSearch(Map<String, String> env, Path home, String tcHost, Path defaultSocket) {

  private static final String NOT_FOUND_PREFIX = "Could not find a valid Docker environment";
  private static final String FAIL_FAST_PREFIX = "Previous attempts to find a Docker environment";
  private static final String PREPARATION_FAILURE_PREFIX = "Docker was found, but Testcontainers could not prepare it: ";

  /**
   * This JVM's environment.
   *
   * @return the places as this JVM sees them
   */
  public static ContainerDockerSearch current() {
    String tcHost = null;
    try {
      tcHost = TestcontainersConfiguration.getInstance().getUserProperty("tc.host", null);
    } catch (RuntimeException e) {
      LoggerFactory.getLogger(ContainerDockerSearch.class).debug("could not read tc.host", e);
    }
    return new ContainerDockerSearch(
        System.getenv(),
        Path.of(System.getProperty("user.home")),
        tcHost,
        Path.of("/var/run/docker.sock"));
  }

  /**
   * Whether a message of {@link #unreachableMessage(String)} says that Docker was found but Testcontainers could
   * not prepare it (as opposed to no Docker at all).
   *
   * @param message the message
   * @return whether it is a preparation failure
   */
  public static boolean isPreparationFailure(String message) {
    return message.startsWith(PREPARATION_FAILURE_PREFIX);
  }

  /**
   * The message for a Docker that Testcontainers could not use: every place tried with what is
   * there, or, when Docker was found but Testcontainers failed afterwards, that failure.
   *
   * @param testcontainersSaid Testcontainers' own message
   * @return the message
   */
  public String unreachableMessage(String testcontainersSaid) {
    if (testcontainersSaid != null
        && !testcontainersSaid.startsWith(NOT_FOUND_PREFIX)
        && !testcontainersSaid.startsWith(FAIL_FAST_PREFIX)) {
      return PREPARATION_FAILURE_PREFIX
          + testcontainersSaid.replaceAll("\\.+$", "")
          + ". Testcontainers pulls helper images at first use (testcontainers/ryuk to clean up;"
          + " alpine to find the Docker host when the JVM runs inside a container); where they"
          + " cannot be pulled, set TESTCONTAINERS_RYUK_DISABLED=true (ctk removes its own"
          + " containers) and TESTCONTAINERS_HOST_OVERRIDE=<address of the Docker host; localhost"
          + " when dockerd runs beside the JVM>. Or run with -Dctk.mode=envtest for local binaries.";
    }
    List<String> tried = new ArrayList<>();
    String dockerHost = env.get("DOCKER_HOST");
    tried.add("DOCKER_HOST=" + (dockerHost == null ? "<unset>" : dockerHost + unixState(dockerHost)));
    tried.add("tc.host=" + (tcHost == null ? "<unset>" : tcHost) + " (~/.testcontainers.properties)");
    tried.add("unix://" + defaultSocket + " (" + socketState(defaultSocket) + ")");
    String xdg = env.get("XDG_RUNTIME_DIR");
    tried.add(
        xdg == null
            ? "$XDG_RUNTIME_DIR/docker.sock (XDG_RUNTIME_DIR unset)"
            : Path.of(xdg, "docker.sock") + " (" + socketState(Path.of(xdg, "docker.sock")) + ")");
    for (Path socket :
        List.of(home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"))) {
      tried.add(socket + " (" + socketState(socket) + ")");
    }
    return "Docker is not running or not reachable (tried: "
        + String.join(", ", tried)
        + "; Testcontainers said: "
        + testcontainersSaid
        + "). Start Docker, or run with -Dctk.mode=envtest for local binaries.";
  }

  private static String unixState(String dockerHost) {
    if (!dockerHost.startsWith("unix://")) {
      return "";
    }
    return " (" + socketState(Path.of(URI.create(dockerHost).getPath())) + ")";
  }

  private static String socketState(Path socket) {
    if (!Files.exists(socket)) {
      return "no such file";
    }
    try {
      Object mode = Files.getAttribute(socket, "unix:mode");
      if (mode instanceof Integer bits && (bits & 0170000) != 0140000) {
        return "not a socket";
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // no unix attributes on this file system: try to connect anyway
    }
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      return "accepts connections";
    } catch (IOException | UnsupportedOperationException e) {
      return "cannot connect: " + e.getMessage();
    }
  }
}

package dev.ctk.envtest;

import dev.ctk.envtest.values.EnvtestException;

/**
 * Run in a child JVM by {@link ContainerDockerUnreachableTest}: starts a container server and
 * prints the failure message on stdout after {@code MESSAGE:}.
 */
public final class ContainerUnreachableMain {

  private ContainerUnreachableMain() {}

  public static void main(String[] args) {
    try (ContainerApiServer server = ContainerApiServer.builder().build()) {
      server.start();
      System.out.println("STARTED: " + server.description());
      System.exit(3);
    } catch (EnvtestException e) {
      System.out.println("MESSAGE:" + e.getMessage());
      System.exit(0);
    }
  }
}

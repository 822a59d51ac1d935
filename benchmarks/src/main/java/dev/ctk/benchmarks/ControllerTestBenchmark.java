package dev.ctk.benchmarks;

import dev.ctk.controller.Controller;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Benchmark 4, a whole controller test from start to assertion, as a test method in fake mode runs it: start a
 * fresh server and client, build and start {@link DeploymentServiceController} (two informers synced, one worker),
 * create an nginx Deployment, wait until its Service exists (fabric8's {@code waitUntilCondition}, a watch, bound
 * {@link SeenConfigMaps#TIMEOUT}), then close the controller and the server. All of it is timed.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ControllerTestBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ControllerTestBenchmark {

  /** Which server. */
  @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK"})
  public Target target;

  /** Refuses a target that stores nothing (see {@link Target#requireObjectStore(Class)}). */
  @Setup(Level.Trial)
  public void requireObjectStore() {
    target.requireObjectStore(ControllerTestBenchmark.class);
  }

  /**
   * One test: start, create a Deployment, see its Service, close.
   *
   * @return the Service
   */
  @Benchmark
  public Service deploymentGetsItsService() {
    try (ClusterUnderTest cluster = target.start()) {
      KubernetesClient client = cluster.client();
      Controller controller = DeploymentServiceController.create(client).start();
      try {
        client.apps().deployments().resource(nginxDeployment("web")).create();
        return client.services().withName("web")
            .waitUntilCondition(Objects::nonNull, SeenConfigMaps.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } finally {
        controller.close();
      }
    }
  }

  /**
   * A valid nginx Deployment: one container exposing port 80.
   *
   * @param name its name
   * @return the Deployment, not stored
   */
  static Deployment nginxDeployment(String name) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).addToLabels("app", "nginx").endMetadata()
        .withNewSpec()
          .withReplicas(1)
          .withNewSelector().addToMatchLabels("app", "nginx").addToMatchLabels("deployment", name).endSelector()
          .withNewTemplate()
            .withNewMetadata().addToLabels("app", "nginx").addToLabels("deployment", name).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("nginx").withImage("nginx:1.27")
                .addNewPort().withName("http").withContainerPort(80).endPort()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}

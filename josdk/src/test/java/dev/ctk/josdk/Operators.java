package dev.ctk.josdk;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Duration;
import java.util.function.Consumer;

/** How the tests build operators: JOSDK's defaults, reporting to the probe, on the test's client. */
final class Operators {

  private Operators() {}

  static Operator reportingTo(OperatorProbe probe, KubernetesClient client) {
    return reportingTo(probe, client, o -> { });
  }

  static Operator reportingTo(OperatorProbe probe, KubernetesClient client,
      Consumer<ConfigurationServiceOverrider> more) {
    return new Operator(o -> more.accept(
        o.withKubernetesClient(client).withCloseClientOnStop(false).withMetrics(probe)));
  }

  /** A retry with a fixed interval: first retry after {@code interval}, then every {@code interval}. */
  static GenericRetry retryEvery(Duration interval) {
    return new GenericRetry().setInitialInterval(interval.toMillis()).setIntervalMultiplier(1)
        .setMaxAttempts(5);
  }
}

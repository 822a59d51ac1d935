package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Perturbation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A campaign is never quiet: one that finds nothing to perturb fails (or, when asked, warns) saying why and what to
 * change, and a hand-written loop observed through a {@code ControllerProbe} gets the watch perturbations of the
 * kinds it watches.
 */
class PerturbationNeverSilentTest {

  @TempDir
  Path reports;

  @Test
  void should_fail_a_campaign_that_finds_nothing_to_perturb_saying_why_and_what_to_change() {
    // WHEN
    EngineExecutionResults results = run(NothingToPerturb.class, "ctk.report-dir", reports.toString());
    // THEN
    Throwable failure = onlyFailure(results);
    assertThat(failure).isInstanceOf(AssertionError.class);
    List<String> lines = failure.getMessage().lines().collect(Collectors.toList());
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationNeverSilentTest\\$NothingToPerturb#"
        + "creates_a_config_map: nothing to perturb: the reference run made no controller writes that can be "
        + "crashed at \\(no controller started from a factory\\) and no watch events of the kinds its controllers "
        + "watch \\(seed -?\\d+; reference [\\d.]+(µs|ms|s)\\)");
    assertThat(lines.get(1)).isEqualTo("  the reference run had: 0 controller writes, 0 controllers started (0 from "
        + "a factory), observed views [], watched kinds [], watch events of those kinds {}");
    assertThat(lines.get(2)).startsWith("  Fix: start the controller from a factory (harness.start(() -> "
        + "MyController.create(client)))").endsWith("or set ctk.perturb.nothing-to-perturb=warn to be warned "
        + "instead of failed.");
    assertThat(EngineRuns.perturbationReport(results)).isEqualTo(failure.getMessage());
  }

  @Test
  void should_pass_with_a_warning_when_asked_to_warn() {
    // WHEN
    EngineExecutionResults results = run(NothingToPerturb.class, "ctk.report-dir", reports.toString(),
        "ctk.perturb.nothing-to-perturb", "warn");
    // THEN
    assertAllPassed(results, 1);
    assertThat(EngineRuns.perturbationReport(results)).contains(": nothing to perturb: ").contains("  Fix: ");
  }

  @Test
  void should_refuse_an_unknown_nothing_to_perturb_value_naming_the_choices() {
    // WHEN
    EngineExecutionResults results = run(NothingToPerturb.class, "ctk.report-dir", reports.toString(),
        "ctk.perturb.nothing-to-perturb", "ignore");
    // THEN
    assertThat(onlyFailure(results).getMessage()).contains("ctk.perturb.nothing-to-perturb").contains("ignore")
        .contains("fail").contains("warn");
  }

  @Test
  void should_plan_stale_views_on_the_kinds_an_observed_hand_written_loop_watches() {
    // WHEN
    EngineExecutionResults results = run(ObservedLoop.class, "ctk.report-dir", reports.toString());
    // THEN
    assertAllPassed(results, 1);
    List<String> lines = EngineRuns.perturbationReport(results).lines().collect(Collectors.toList());
    assertThat(lines.get(0)).matches("ctk perturbation: PerturbationNeverSilentTest\\$ObservedLoop#copies_the_config"
        + "_map: 0 of \\d+ runs? failed.*");
    assertThat(lines).anyMatch(l -> l.matches("  (PASS|SKIP) stale-view:ConfigMap:event-1 .*"));
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withData(Map.of("k", "v")).build();
  }

  @Fixture
  @ControllerTest
  static class NothingToPerturb {

    @Test
    @Perturbed
    void creates_a_config_map(KubernetesClient client) {
      client.configMaps().resource(configMap("web")).create();
      assertThat(client.configMaps().withName("web").get()).isNotNull();
    }
  }

  @Fixture
  @ControllerTest
  static class ObservedLoop {

    @Test
    @Perturbed(kinds = Perturbation.STALE_VIEW)
    void copies_the_config_map(KubernetesClient client, ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.create("copier-loop"));
      harness.closeAfterTest(new CopierLoop(client, probe));
      client.configMaps().resource(configMap("web")).create();
      await("web-copy").atMost(ofSeconds(10)).until(() -> client.configMaps().withName("web-copy").get() != null);
    }
  }

  /** A hand-written loop: an informer, a queue and one worker thread, seen through a probe. */
  static final class CopierLoop implements AutoCloseable {

    private final KubernetesClient client;
    private final ControllerProbe probe;
    private final SharedIndexInformer<ConfigMap> informer;
    private final BlockingQueue<String> queue;
    private final Thread worker;

    CopierLoop(KubernetesClient client, ControllerProbe probe) {
      this.client = client;
      this.probe = probe;
      this.queue = probe.observe(new LinkedBlockingQueue<>());
      this.informer = client.configMaps().inNamespace("default").inform(new ResourceEventHandler<>() {
        @Override
        public void onAdd(ConfigMap object) {
          queue.add(Cache.metaNamespaceKeyFunc(object));
        }

        @Override
        public void onUpdate(ConfigMap before, ConfigMap after) {
          queue.add(Cache.metaNamespaceKeyFunc(after));
        }

        @Override
        public void onDelete(ConfigMap object, boolean unknownFinalState) {
          queue.add(Cache.metaNamespaceKeyFunc(object));
        }
      }, 0);
      probe.watch(informer);
      this.worker = new Thread(this::work, "copier-loop");
      worker.start();
    }

    private void work() {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          String key = queue.take();
          probe.reconcile(key, () -> copy(key));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    private void copy(String key) {
      ConfigMap source = informer.getStore().getByKey(key);
      if (source == null || source.getMetadata().getName().endsWith("-copy")) {
        return;
      }
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
          .withName(source.getMetadata().getName() + "-copy").endMetadata().withData(source.getData()).build())
          .createOr(existing -> existing.update());
    }

    @Override
    public void close() throws InterruptedException {
      worker.interrupt();
      worker.join(5_000);
      informer.close();
    }
  }
}

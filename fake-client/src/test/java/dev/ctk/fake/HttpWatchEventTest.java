package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.values.AdmissionDecision;
import dev.ctk.fake.values.AdmissionHook;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP, the watch event of a write leaves the server's event loop as soon as the write is committed, before the
 * loop runs the tasks queued meanwhile (and before the write's answer).
 */
class HttpWatchEventTest {

  @Test
  void aCreatesEvent_reachesAWatch_beforeTheServerLoopRunsATaskQueuedDuringTheCreate() throws Exception {
    CountDownLatch seen = new CountDownLatch(1);
    CompletableFuture<Boolean> seenBeforeTheTaskEnded = new CompletableFuture<>();
    AdmissionHook queueATask = request -> {
      if ("watched".equals(request.name())) {   // runs on the server's event loop, before the create is committed
        Vertx.currentContext().runOnContext(v -> seenBeforeTheTaskEnded.complete(awaitUpTo5s(seen)));
      }
      return AdmissionDecision.allow();
    };
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(ClientTransport.HTTP)
            .withValidatingAdmission("queue-a-task.ctk.dev", queueATask).build();
        Watch watch = cluster.client().configMaps().inNamespace("default").watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap configMap) {
            if (action == Action.ADDED && "watched".equals(configMap.getMetadata().getName())) {
              seen.countDown();
            }
          }

          @Override
          public void onClose(WatcherException cause) {
          }
        })) {
      cluster.client().configMaps().inNamespace("default")
          .resource(new ConfigMapBuilder().withNewMetadata().withName("watched").endMetadata().build()).create();

      assertThat(seenBeforeTheTaskEnded.get(10, TimeUnit.SECONDS))
          .as("the ADDED event reached the watch while the server's loop ran a task queued before the event existed "
              + "(a queued event would wait 5 s behind it)")
          .isTrue();
    }
  }

  private static boolean awaitUpTo5s(CountDownLatch latch) {
    try {
      return latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

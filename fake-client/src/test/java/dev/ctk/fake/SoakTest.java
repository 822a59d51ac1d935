package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A soak: concurrent writers, several informers over both transports, and API and watch faults at once (refused and
 * dropped requests, delayed requests and events, watches closed and expired with 410). At the end every informer's
 * cache equals the store, no informer saw an object's resourceVersion go back, and the JVM's threads and file
 * descriptors are back where they were. The load lasts {@code ctk.soak.seconds} (default 40).
 */
class SoakTest {

  private static final List<String> NAMESPACES = List.of("soak-a", "soak-b");
  private static final int NAMES = 40;
  private static final int WRITERS = 4;

  /**
   * Threads of pools shared by the whole JVM, which outlive any one cluster or client by design (fabric8's scheduler
   * for timeouts and retries, the common fork-join pool): not counted as left behind.
   */
  private static final List<String> JVM_WIDE_THREADS = List.of("CachedSingleThreadScheduler-",
      "ForkJoinPool.commonPool-", "process reaper",
      // the shared Vert.x instances of every HTTP fake and client (SharedVertx) start their event loops as needed
      "vert.x-");

  @Test
  void leaves_every_informer_equal_to_the_store_and_nothing_behind() throws Exception {
    // GIVEN the JVM-wide pools started once, and what the JVM holds before
    warmUp();
    Set<String> threadsBefore = liveThreads();
    long descriptorsBefore = openDescriptors();
    Duration load = Duration.ofSeconds(Long.getLong("ctk.soak.seconds", 40));
    Totals totals = new Totals();
    try (FakeCluster cluster = FakeCluster.builder().withRandomSeed(20261126L).build();
        KubernetesClient inProcess = cluster.newClient();
        KubernetesClient http = new KubernetesClientBuilder().withConfig(cluster.clientConfig()).build()) {
      NAMESPACES.forEach(ns -> inProcess.resource(new NamespaceBuilder().withNewMetadata().withName(ns)
          .endMetadata().build()).create());
      List<Watched> informers = List.of(
          Watched.start("in-process, all namespaces", inProcess.configMaps().inAnyNamespace()
              .withLabel("soak").runnableInformer(0), cm -> true),
          Watched.start("http, all namespaces", http.configMaps().inAnyNamespace().withLabel("soak")
              .runnableInformer(0), cm -> true),
          Watched.start("in-process, soak-a", inProcess.configMaps().inNamespace("soak-a").withLabel("soak")
              .runnableInformer(0), cm -> cm.getMetadata().getNamespace().equals("soak-a")),
          Watched.start("http, tier=gold", http.configMaps().inAnyNamespace().withLabel("tier", "gold")
              .runnableInformer(0), cm -> "gold".equals(cm.getMetadata().getLabels().get("tier"))));
      // AND faults on writes and on watches
      installApiFaults(cluster);
      cluster.watchFaults().delay(WatchPattern.kind("ConfigMap"), Duration.ofMillis(3), 10_000);
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
      try {
        // WHEN writers run while watches are closed and expired every 700 ms
        List<Future<?>> work = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          KubernetesClient client = w % 2 == 0 ? inProcess : http;
          long seed = w;
          work.add(pool.submit(() -> write(client, new Random(seed), stop, totals)));
        }
        work.add(pool.submit(() -> breakWatches(cluster, stop, totals)));
        Thread.sleep(load.toMillis());
        stop.set(true);
        for (Future<?> f : work) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        stop.set(true);
        pool.shutdownNow();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("writers stopped").isTrue();
      }
      List<FaultFiring> firings = cluster.faults().firings();
      cluster.faults().clear();
      cluster.watchFaults().clear();
      // THEN the faults fired, the writers did work, and every informer catches up with the store
      assertThat(totals.writes.get()).as("writes served").isGreaterThan(1_000);
      assertThat(totals.refused.get()).as("writes the faults refused (retried by the writers)").isGreaterThan(10);
      assertThat(totals.closed.get()).as("watches closed").isGreaterThan(5);
      assertThat(totals.expired.get()).as("watches expired (410)").isGreaterThan(5);
      assertThat(firings.stream().map(FaultFiring::rule).distinct().count())
          .as("API fault rules that fired: %s", firings.stream().map(FaultFiring::fault).distinct().toList())
          .isEqualTo(4);
      Map<String, String> store = stored(inProcess);
      for (Watched informer : informers) {
        Map<String, String> expected = stored(inProcess, informer.selects);
        await(informer.name + " equal to the store").atMost(Duration.ofSeconds(30))
            .untilAsserted(() -> assertThat(informer.cache()).isEqualTo(expected));
        assertThat(informer.wentBack).as("%s: events whose resourceVersion went back", informer.name).isEmpty();
        assertThat(informer.events.get()).as("%s: events", informer.name).isGreaterThan(100);
        informer.informer.close();
      }
      assertThat(store).isNotEmpty();
      System.out.printf("ctk soak: %d s of load, %d writes, %d refused and retried, %d watches closed, %d expired, "
          + "%d API fault firings, %d objects at the end, events per informer %s%n", load.toSeconds(),
          totals.writes.get(), totals.refused.get(), totals.closed.get(), totals.expired.get(), firings.size(),
          store.size(),
          informers.stream().map(i -> i.name + "=" + i.events.get()).toList());
    }
    // AND nothing is left behind
    await("threads of the run gone").atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(newThreads(threadsBefore)).isEmpty());
    await("file descriptors back").atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(openDescriptors()).isLessThanOrEqualTo(descriptorsBefore));
  }

  private static void installApiFaults(FakeCluster cluster) {
    cluster.faults().when(RequestPattern.update("ConfigMap")).withProbability(0.05).withSeed(1)
        .answer(ApiFault.conflict());
    cluster.faults().when(RequestPattern.create("ConfigMap")).withProbability(0.03).withSeed(2)
        .answer(ApiFault.serviceUnavailable());
    cluster.faults().when(RequestPattern.patch("ConfigMap")).withProbability(0.03).withSeed(3)
        .answer(ApiFault.dropConnection());
    cluster.faults().when(RequestPattern.delete("ConfigMap")).withProbability(0.05).withSeed(4)
        .answer(ApiFault.delay(Duration.ofMillis(20)));
  }

  /** One writer: random creates, read-modify-write updates, merge patches and deletes until stopped. */
  private static void write(KubernetesClient client, Random random, AtomicBoolean stop, Totals totals) {
    while (!stop.get()) {
      String namespace = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
      String name = "cm-" + random.nextInt(NAMES);
      try {
        switch (random.nextInt(4)) {
          case 0 -> client.resource(new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace)
              .addToLabels("soak", "true").addToLabels("tier", random.nextBoolean() ? "gold" : "iron").endMetadata()
              .addToData("n", "0").build()).create();
          case 1 -> {
            ConfigMap current = client.configMaps().inNamespace(namespace).withName(name).get();
            if (current == null) {
              continue;
            }
            current.getData().put("n", Integer.toString(random.nextInt(1_000_000)));
            client.resource(current).update();
          }
          case 2 -> client.configMaps().inNamespace(namespace).withName(name).patch(
              "{\"metadata\":{\"labels\":{\"tier\":\"" + (random.nextBoolean() ? "gold" : "iron") + "\"}}}");
          default -> client.configMaps().inNamespace(namespace).withName(name).delete();
        }
        totals.writes.incrementAndGet();
      } catch (KubernetesClientException e) {
        boolean served = e.getCode() == 404
            || e.getStatus() != null && "AlreadyExists".equals(e.getStatus().getReason());
        // served: a create of an existing name, a write to a deleted object; else a fault, or a real conflict
        (served ? totals.writes : totals.refused).incrementAndGet();
      }
    }
  }

  /** Closes and expires every ConfigMap watch in turn, until stopped. */
  private static void breakWatches(FakeCluster cluster, AtomicBoolean stop, Totals totals) {
    boolean expire = false;
    while (!stop.get()) {
      try {
        Thread.sleep(700);
      } catch (InterruptedException e) {
        return;
      }
      int broken = expire ? cluster.watchFaults().expire(WatchPattern.kind("ConfigMap"))
          : cluster.watchFaults().close(WatchPattern.kind("ConfigMap"));
      (expire ? totals.expired : totals.closed).addAndGet(broken);
      expire = !expire;
    }
  }

  /** Every labelled ConfigMap in the store, {@code namespace/name -> resourceVersion data}. */
  private static Map<String, String> stored(KubernetesClient client) {
    return stored(client, cm -> true);
  }

  private static Map<String, String> stored(KubernetesClient client, Predicate<ConfigMap> selects) {
    return client.configMaps().inAnyNamespace().withLabel("soak").list().getItems().stream().filter(selects)
        .collect(Collectors.toMap(Watched::key, Watched::state, (a, b) -> a, TreeMap::new));
  }

  /** One cluster, client and informer, closed: the JVM-wide pools they start are then running before the soak. */
  private static void warmUp() {
    try (FakeCluster cluster = FakeCluster.start();
        KubernetesClient http = new KubernetesClientBuilder().withConfig(cluster.clientConfig()).build()) {
      SharedIndexInformer<ConfigMap> informer = http.configMaps().inNamespace("default").inform();
      cluster.client().resource(new ConfigMapBuilder().withNewMetadata().withName("warm").endMetadata().build())
          .create();
      await().atMost(Duration.ofSeconds(10)).until(() -> informer.getStore().list().size() == 1);
      informer.close();
    }
  }

  private static Set<String> liveThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(t -> t.getName() + "#" + t.getId()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Threads alive now that were not before, but for the JVM-wide pools and the thread asking (Awaitility's). */
  private static List<String> newThreads(Set<String> before) {
    String asking = Thread.currentThread().getName() + "#" + Thread.currentThread().getId();
    return liveThreads().stream().filter(t -> !before.contains(t)).filter(t -> !t.equals(asking))
        .filter(t -> JVM_WIDE_THREADS.stream().noneMatch(t::startsWith)).toList();
  }

  private static long openDescriptors() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : 0;
  }

  private static final class Totals {
    final AtomicLong writes = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong closed = new AtomicLong();
    final AtomicLong expired = new AtomicLong();
  }

  /** An informer, what its handler saw, and which stored objects it should hold. */
  private static final class Watched implements ResourceEventHandler<ConfigMap> {
    final String name;
    final SharedIndexInformer<ConfigMap> informer;
    final Predicate<ConfigMap> selects;
    final AtomicLong events = new AtomicLong();
    final Map<String, Long> lastVersion = new ConcurrentHashMap<>();
    final List<String> wentBack = new CopyOnWriteArrayList<>();

    private Watched(String name, SharedIndexInformer<ConfigMap> informer, Predicate<ConfigMap> selects) {
      this.name = name;
      this.informer = informer;
      this.selects = selects;
    }

    static Watched start(String name, SharedIndexInformer<ConfigMap> informer, Predicate<ConfigMap> selects) {
      Watched watched = new Watched(name, informer, selects);
      informer.addEventHandler(watched);
      informer.start();
      await(name + " synced").atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
      return watched;
    }

    Map<String, String> cache() {
      return informer.getStore().list().stream()
          .collect(Collectors.toMap(Watched::key, Watched::state, (a, b) -> a, TreeMap::new));
    }

    static String key(ConfigMap cm) {
      return cm.getMetadata().getNamespace() + "/" + cm.getMetadata().getName();
    }

    static String state(ConfigMap cm) {
      return cm.getMetadata().getResourceVersion() + " " + cm.getData() + " " + cm.getMetadata().getLabels();
    }

    /** Records the object's version; one lower than the last this informer saw of the object is a reorder. */
    private void saw(ConfigMap cm, String how) {
      events.incrementAndGet();
      long version = Long.parseLong(cm.getMetadata().getResourceVersion());
      Long last = lastVersion.put(key(cm), version);
      if (last != null && version < last) {
        wentBack.add(Instant.now() + " " + how + " " + key(cm) + " rv " + version + " after " + last);
      }
    }

    @Override
    public void onAdd(ConfigMap cm) {
      saw(cm, "ADDED");
    }

    @Override
    public void onUpdate(ConfigMap before, ConfigMap after) {
      saw(after, "MODIFIED");
    }

    @Override
    public void onDelete(ConfigMap cm, boolean finalStateUnknown) {
      saw(cm, finalStateUnknown ? "DELETED (final state unknown)" : "DELETED");
    }
  }
}

package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.TestNamespaces;
import dev.ctk.fake.EventInjector;
import dev.ctk.harness.internal.ApiEventTarget;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code EventInjector.update} in a real mode ignores the object's resourceVersion: it reads the
 * current one and writes with it, and when another writer comes in between (409 Conflict) it reads
 * again, a bounded number of times. The other writer is made deterministic: an interceptor on the
 * injector's client changes the object with a second client just before each PUT it lets through.
 */
class ApiEventTargetTest {

  private ApiServer server;
  private TestNamespaces namespaces;
  private KubernetesClient admin;
  private String namespace;
  /** Conflicts still to cause; PUTs of the ConfigMap seen. */
  private final AtomicInteger conflictsLeft = new AtomicInteger();
  private final AtomicInteger puts = new AtomicInteger();
  private KubernetesClient client;

  @BeforeEach
  void setUp() {
    server = RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    admin = server.newClient();
    namespaces = TestNamespaces.builder(admin).build();
    namespace = namespaces.create("ApiEventTargetTest");
    Config config = server.clientConfig();
    config.setNamespace(namespace);
    client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("other-writer",
            new OtherWriter()))
        .build();
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    if (namespaces != null) {
      namespaces.close();
    }
    if (admin != null) {
      admin.close();
    }
  }

  @Test
  void should_retry_an_update_that_meets_a_conflict_with_a_fresh_read() {
    // GIVEN
    EventInjector events = EventInjector.of(new ApiEventTarget(client, Mode.ENVTEST, "the server"));
    ConfigMap web = events.add(configMap("original"));
    conflictsLeft.set(2);
    // WHEN
    ConfigMap updated = events.update(configMap("ours"));
    // THEN two writes met a conflict, the third went through and replaced the object (the other
    // writer's label is gone)
    assertThat(puts).hasValue(3);
    assertThat(updated.getData()).isEqualTo(Map.of("key", "ours"));
    ConfigMap stored = admin.configMaps().inNamespace(namespace).withName("web").get();
    assertThat(stored.getData()).isEqualTo(Map.of("key", "ours"));
    assertThat(stored.getMetadata().getLabels()).isNullOrEmpty();
    assertThat(Long.parseLong(stored.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(web.getMetadata().getResourceVersion()));
  }

  @Test
  void should_fail_after_five_conflicts_in_a_row_naming_them_and_the_fix() {
    // GIVEN
    EventInjector events = EventInjector.of(new ApiEventTarget(client, Mode.ENVTEST, "the server"));
    events.add(configMap("original"));
    conflictsLeft.set(Integer.MAX_VALUE);
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> events.update(configMap("ours")));
    // THEN
    assertThat(puts).hasValue(ApiEventTarget.UPDATE_ATTEMPTS);
    assertThat(error).hasMessage("EventInjector.update(ConfigMap " + namespace + "/web) failed in "
        + "envtest mode, against the server: 409 Conflict 5 times in a row (another writer "
        + "changed the object between each read and write); last answer: Conflict: Operation "
        + "cannot be fulfilled on configmaps \"web\": the object has been modified; please apply "
        + "your changes to the latest version and try again. Fix: stop the other writer (often "
        + "the controller under test) before injecting the update, or write through the client "
        + "with your own retry.");
    assertThat(admin.configMaps().inNamespace(namespace).withName("web").get().getData())
        .isEqualTo(Map.of("key", "original"));
  }

  private static ConfigMap configMap(String value) {
    return new ConfigMapBuilder().withNewMetadata().withName("web").withResourceVersion("1")
        .endMetadata().addToData("key", value).build();
  }

  /** Before a PUT of ConfigMap web, changes it with the admin client while conflicts are left. */
  private final class OtherWriter implements Interceptor {

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      if (!"PUT".equals(request.method())
          || !request.uri().getPath().endsWith("/configmaps/web")) {
        return;
      }
      puts.incrementAndGet();
      if (conflictsLeft.getAndDecrement() > 0) {
        admin.configMaps().inNamespace(namespace).withName("web").edit(cm ->
            new ConfigMapBuilder(cm).editMetadata()
                .addToLabels("other-writer", String.valueOf(puts.get())).endMetadata().build());
      }
    }
  }
}

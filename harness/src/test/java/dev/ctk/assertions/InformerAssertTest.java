package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.ObjectKey;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InformerAssertTest {

  private final FakeCluster cluster = FakeCluster.start();
  private final KubernetesClient client = cluster.client();
  private SharedIndexInformer<ConfigMap> informer;

  @AfterEach
  void close() {
    if (informer != null) {
      informer.close();
    }
    cluster.close();
  }

  @Test
  void should_pass_hasSynced_and_see_objects_created_before_and_after_start() {
    // GIVEN
    create("before");
    informer = client.configMaps().inNamespace("default").inform();
    // WHEN
    create("after");
    // THEN
    assertThat(informer).hasSynced().containsKey("default/before")
        .within(ofSeconds(5)).containsKey(ObjectKey.of("default", "after")).hasSize(2)
        .doesNotContainKey("default/other");
  }

  @Test
  void should_fail_hasSynced_for_an_informer_that_was_not_started() {
    // GIVEN
    informer = client.configMaps().inNamespace("default").runnableInformer(0);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(informer).hasSynced());
    // THEN
    assertThat(error).hasMessage("""

        Expecting ConfigMap informer
          to have synced
        but it has not: it is not running. Fix: start it (informer.start(), or inform() instead \
        of runnableInformer()), or start a Controller that watches it.""");
  }

  @Test
  void should_fail_containsKey_within_a_timeout_listing_the_cached_keys() {
    // GIVEN
    create("web");
    create("api");
    informer = client.configMaps().inNamespace("default").inform();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(informer).within(ofMillis(200)).containsKey("web"));
    // THEN
    String expected = """

        Expecting ConfigMap informer
          to contain web in its cache within 200ms
        but its cache held 2 objects:
          [default/api, default/web]""";
    assertThat(error).hasMessage(expected).hasNoCause();
  }

  @Test
  void should_pass_doesNotContainKey_within_a_timeout_once_the_object_is_deleted() {
    // GIVEN
    create("web");
    informer = client.configMaps().inNamespace("default").inform();
    assertThat(informer).containsKey("default/web");
    // WHEN
    client.configMaps().inNamespace("default").withName("web").delete();
    // THEN
    assertThat(informer).within(ofSeconds(5)).doesNotContainKey("default/web").hasSize(0);
  }

  @Test
  void should_fail_doesNotContainKey_for_a_cached_object() {
    // GIVEN
    create("web");
    informer = client.configMaps().inNamespace("default").inform();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(informer).doesNotContainKey("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting ConfigMap informer
          not to contain default/web in its cache
        but it did.""");
  }

  @Test
  void should_fail_hasSize_listing_the_cached_keys() {
    // GIVEN
    create("web");
    informer = client.configMaps().inNamespace("default").inform();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(informer).hasSize(2));
    // THEN
    assertThat(error).hasMessage("""

        Expecting ConfigMap informer
          to hold 2 objects in its cache
        but it held 1:
          [default/web]""");
  }

  @Test
  void should_refuse_a_null_key_naming_the_check() {
    // GIVEN
    informer = client.configMaps().inNamespace("default").inform();
    // WHEN
    NullPointerException error = catchThrowableOfType(NullPointerException.class,
        () -> assertThat(informer).doesNotContainKey((ObjectKey) null));
    // THEN
    assertThat(error).hasMessage("InformerAssert.doesNotContainKey: the key is null. Pass "
        + "\"namespace/name\", or \"name\" for a cluster-scoped object.");
  }

  private void create(String name) {
    client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(name).endMetadata().addToData("k", "v").build()).create();
  }
}

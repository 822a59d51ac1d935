package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link RequestJournalAssert} over the journal of a real fake cluster. */
class RequestJournalAssertTest {

  private FakeCluster cluster;
  private KubernetesClient client;
  private RequestJournal journal;

  @BeforeEach
  void startCluster() {
    cluster = FakeCluster.start();
    client = cluster.client();
    journal = cluster.requests();
  }

  @AfterEach
  void closeCluster() {
    cluster.close();
  }

  @Test
  void should_pass_count_checks_when_the_counts_match() {
    // GIVEN one create and two patches of default/web
    create("web");
    patch("web", "a");
    patch("web", "b");
    // WHEN / THEN
    assertThat(journal)
        .hasExactly(1, RequestPattern.create("ConfigMap"))
        .hasExactly(2, RequestPattern.patch("configmaps").named("default", "web"))
        .hasAtLeast(2, RequestPattern.patch("ConfigMap"))
        .hasAtMost(2, RequestPattern.patch("ConfigMap"))
        .hasNone(RequestPattern.delete("ConfigMap"))
        .hasExactly(0, RequestPattern.update("ConfigMap"));
  }

  @Test
  void should_fail_hasExactly_listing_the_matching_requests() {
    // GIVEN three patches where one was expected
    create("web");
    patch("web", "a");
    patch("web", "b");
    patch("web", "c");
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasExactly(1, RequestPattern.patch("ConfigMap")));
    // THEN
    assertThat(error).hasMessage("\nExpecting exactly 1 request matching patch ConfigMap\n"
        + "but found 3:\n" + summaries(RequestPattern.patch("ConfigMap")));
    assertThat(summaries(RequestPattern.patch("ConfigMap")))
        .startsWith("  #3 patch configmaps default/web (json, no resourceVersion) -> 200 changed\n");
  }

  @Test
  void should_fail_hasAtLeast_saying_how_many_requests_it_looked_at_when_none_match() {
    // GIVEN
    create("web");
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasAtLeast(2, RequestPattern.update("ConfigMap")));
    // THEN
    assertThat(error).hasMessage("\nExpecting at least 2 requests matching update ConfigMap\n"
        + "but found none among 1 request.");
  }

  @Test
  void should_fail_hasAtMost_and_hasNone_listing_the_requests() {
    // GIVEN
    create("web");
    create("api");
    // WHEN
    AssertionError atMost = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasAtMost(1, RequestPattern.create("ConfigMap")));
    AssertionError none = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNone(RequestPattern.writes()));
    // THEN
    String listed = summaries(RequestPattern.create("ConfigMap"));
    assertThat(atMost).hasMessage("\nExpecting at most 1 request matching create ConfigMap\n"
        + "but found 2:\n" + listed);
    assertThat(none).hasMessage("\nExpecting no request matching any write of any kind\n"
        + "but found 2:\n" + listed);
  }

  @Test
  void should_count_only_the_requests_after_since_and_say_so() {
    // GIVEN a setup patch, then the patches under test
    create("web");
    patch("web", "setup");
    long afterSetup = journal.lastSequence();
    patch("web", "a");
    patch("web", "b");
    // WHEN
    assertThat(journal).since(afterSetup).hasExactly(2, RequestPattern.patch("ConfigMap"));
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).since(afterSetup).hasExactly(1,
            RequestPattern.patch("ConfigMap")));
    // THEN
    assertThat(error).hasMessage("\nExpecting exactly 1 request matching patch ConfigMap\n"
        + "  among the requests after #" + afterSetup + "\n"
        + "but found 2:\n" + summaries(RequestPattern.patch("ConfigMap"), afterSetup));
  }

  @Test
  void should_count_only_the_requests_matching_filteredOn_and_say_so() {
    // GIVEN
    create("web");
    create("api");
    patch("api", "a");
    // WHEN
    RequestJournalAssert onApi = assertThat(journal)
        .filteredOn(RequestPattern.any().named("default", "api"));
    onApi.hasExactly(1, RequestPattern.patch("ConfigMap"));
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> onApi.filteredOn(RequestPattern.writes()).hasNone(RequestPattern.patch("ConfigMap")));
    // THEN
    assertThat(error).hasMessage("\nExpecting no request matching patch ConfigMap\n"
        + "  among the requests matching any request of any kind default/api and any write of any "
        + "kind\n"
        + "but found 1:\n" + summaries(RequestPattern.patch("ConfigMap")));
  }

  @Test
  void should_list_at_most_20_requests_then_say_how_many_more() {
    // GIVEN 23 creates
    for (int i = 0; i < 23; i++) {
      create("cm-" + i);
    }
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNone(RequestPattern.create("ConfigMap")));
    // THEN
    List<String> lines = journal.entries(RequestPattern.create("ConfigMap")).stream().limit(20)
        .map(r -> "  " + r.summary()).collect(Collectors.toList());
    assertThat(error).hasMessage("\nExpecting no request matching create ConfigMap\n"
        + "but found 23:\n" + String.join("\n", lines) + "\n  ... and 3 more");
  }

  @Test
  void should_pass_hasNoUpdateWithoutResourceVersion_when_every_update_names_one() {
    // GIVEN an update of the object as it was read
    create("web");
    ConfigMap read = client.configMaps().withName("web").get();
    read.setData(Map.of("k", "v"));
    client.configMaps().resource(read).update();
    // WHEN / THEN
    assertThat(journal).hasExactly(1, RequestPattern.update("ConfigMap"))
        .hasNoUpdateWithoutResourceVersion();
  }

  @Test
  void should_fail_hasNoUpdateWithoutResourceVersion_listing_unconditional_updates()
      throws Exception {
    // GIVEN a PUT whose body has no resourceVersion
    create("web");
    int code = put("/api/v1/namespaces/default/configmaps/web",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"default\"},\"data\":{\"k\":\"v\"}}");
    assertThat(code).isEqualTo(200);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNoUpdateWithoutResourceVersion());
    // THEN
    String listed = summaries(RequestPattern.update("ConfigMap"));
    assertThat(listed).contains("no resourceVersion");
    assertThat(error).hasMessage("\nExpecting no update without a resourceVersion (a PUT whose "
        + "body has no metadata.resourceVersion overwrites changes made since the object was "
        + "read)\nbut found 1:\n" + listed + "\nFix: update the object as it was read (with its "
        + "resourceVersion), so that the server answers a stale write with 409 Conflict, or send "
        + "a patch of the fields you own.");
  }

  @Test
  void should_pass_hasNoListWithoutSelector_when_every_list_selects() {
    // GIVEN a list with a label selector and one with a field selector
    create("web");
    client.configMaps().withLabel("app", "web").list();
    client.configMaps().withField("metadata.name", "web").list();
    // WHEN / THEN
    assertThat(journal).hasExactly(2, RequestPattern.list("ConfigMap"))
        .hasNoListWithoutSelector().hasNoListWithoutSelector("ConfigMap");
  }

  @Test
  void should_fail_hasNoListWithoutSelector_listing_lists_without_a_selector() {
    // GIVEN a list without a selector of secrets, and one with a selector of config maps
    client.secrets().list();
    client.configMaps().withLabel("app", "web").list();
    // WHEN
    AssertionError any = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNoListWithoutSelector());
    AssertionError secrets = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNoListWithoutSelector("Secret"));
    // THEN only the secrets list is listed; the config maps pass
    assertThat(journal).hasNoListWithoutSelector("configmaps");
    String listed = summaries(RequestPattern.list("Secret"));
    assertThat(listed).startsWith("  #1 list secrets in default -> 200");
    assertThat(any).hasMessage("\nExpecting no list or watch without a selector (neither "
        + "labelSelector nor fieldSelector)\nbut found 1:\n" + listed + "\nFix: give the informer "
        + "or the list a label or field selector, or narrow the check with "
        + "hasNoListWithoutSelector(kind), since(..) or filteredOn(..).");
    assertThat(secrets).hasMessage("\nExpecting no list or watch of Secret without a selector "
        + "(neither labelSelector nor fieldSelector)\nbut found 1:\n" + listed + "\nFix: give the "
        + "informer or the list a label or field selector.");
  }

  @Test
  void should_fail_hasNoListWithoutSelector_for_an_empty_selector_which_selects_everything()
      throws Exception {
    // GIVEN a list whose labelSelector is present but empty
    java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            cluster.url() + "/api/v1/namespaces/default/configmaps?labelSelector=")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(journal).hasNoListWithoutSelector("ConfigMap"));
    // THEN
    String listed = summaries(RequestPattern.list("ConfigMap"));
    assertThat(listed).startsWith("  #1 list configmaps in default (labelSelector=) -> 200");
    assertThat(error).hasMessage("\nExpecting no list or watch of ConfigMap without a selector "
        + "(neither labelSelector nor fieldSelector)\nbut found 1:\n" + listed + "\nFix: give the "
        + "informer or the list a label or field selector.");
  }

  @Test
  void should_not_count_injected_events() {
    // GIVEN an event injected through the EventInjector, which the journal records too
    cluster.events().add(new ConfigMapBuilder().withNewMetadata().withName("web")
        .withNamespace("default").endMetadata().build());
    assertThat(journal.injections()).hasSize(1);
    // WHEN / THEN
    assertThat(journal).hasNone(RequestPattern.any()).hasNone(RequestPattern.create("ConfigMap"));
  }

  @Test
  void should_refuse_a_null_pattern_a_negative_count_and_a_negative_sequence() {
    // WHEN
    NullPointerException nullPattern = catchThrowableOfType(NullPointerException.class,
        () -> assertThat(journal).hasExactly(1, null));
    IllegalArgumentException negative = catchThrowableOfType(IllegalArgumentException.class,
        () -> assertThat(journal).hasAtMost(-1, RequestPattern.any()));
    IllegalArgumentException since = catchThrowableOfType(IllegalArgumentException.class,
        () -> assertThat(journal).since(-2));
    // THEN
    assertThat(nullPattern).hasMessage("RequestJournalAssert.hasExactly: the pattern is null. "
        + "Pass a RequestPattern, e.g. RequestPattern.patch(\"ConfigMap\").subresource(\"status\").");
    assertThat(negative).hasMessage("RequestJournalAssert: the expected count is -1; pass 0 or "
        + "more.");
    assertThat(since).hasMessage("RequestJournalAssert.since(-2): a sequence number is 0 or more. "
        + "Pass 0 for the whole journal, or a value of RequestJournal.lastSequence() taken "
        + "earlier.");
  }

  private void create(String name) {
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName(name)
        .endMetadata().build()).create();
  }

  private void patch(String name, String value) {
    client.configMaps().withName(name).edit(c -> new ConfigMapBuilder(c).addToData("k", value)
        .build());
  }

  private int put(String path, String body) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(cluster.url() + path))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  /** The summaries of the matching requests, each on a line of its own after two spaces. */
  private String summaries(RequestPattern pattern) {
    return summaries(pattern, 0);
  }

  private String summaries(RequestPattern pattern, long after) {
    return journal.entries(pattern).stream().filter(r -> r.sequence() > after)
        .map(r -> "  " + r.summary()).collect(Collectors.joining("\n"));
  }
}

package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code meta.k8s.io} options kube-apiserver 1.32 validates before anything else: {@code dryRun} per verb and
 * {@code resourceVersionMatch} of a list, each a 422 on the options kind with an empty name.
 */
class RequestOptionsTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"web\"},\"data\":{\"k\":\"v\"}}");
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void badDryRun_onCreate_answers422OnCreateOptions_beforeTheBodyIsRead() {
    RawApi.Reply reply = api.post(CONFIGMAPS + "?dryRun=All&dryRun=Bogus", "{");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"CreateOptions.meta.k8s.io \\"\\" is invalid: dryRun: Unsupported value: []string{\\"All\\", \\"Bogus\\"}: supported values: \\"All\\"",
         "reason":"Invalid","details":{"group":"meta.k8s.io","kind":"CreateOptions","causes":[{
         "reason":"FieldValueNotSupported",
         "message":"Unsupported value: []string{\\"All\\", \\"Bogus\\"}: supported values: \\"All\\"","field":"dryRun"}]},
         "code":422}"""));
  }

  @Test
  void badDryRun_namesEachVerbsOptions_andAnEmptyValueIsBad() {
    assertThat(api.put(CONFIGMAPS + "/web?dryRun=", "{\"metadata\":{\"name\":\"web\"}}").json().path("message")
        .asText()).isEqualTo("UpdateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"\"}: "
            + "supported values: \"All\"");
    assertThat(api.patch(CONFIGMAPS + "/web?dryRun=all", "application/merge-patch+json", "{}").json()
        .path("message").asText()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: "
            + "[]string{\"all\"}: supported values: \"All\"");
    assertThat(api.delete(CONFIGMAPS + "/web?dryRun=Bogus").json().path("message").asText())
        .isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Bogus\"}: "
            + "supported values: \"All\"");
    assertThat(api.post("/api/v1/namespaces/missing/configmaps?dryRun=Bogus", "{\"metadata\":{\"name\":\"x\"}}")
        .code()).isEqualTo(422);
  }

  @Test
  void deleteOptionsBody_winsOverTheQuery() {
    assertThat(api.delete(CONFIGMAPS + "/web?dryRun=Bogus", "{\"dryRun\":[\"All\"]}").code()).isEqualTo(200);
    assertThat(api.get(CONFIGMAPS + "/web").code()).isEqualTo(200);
    assertThat(api.delete(CONFIGMAPS + "/web?dryRun=All", "{\"dryRun\":[\"Bogus\"]}").json().path("message")
        .asText()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: "
            + "[]string{\"Bogus\"}: supported values: \"All\"");
    assertThat(api.delete(CONFIGMAPS + "?dryRun=Bogus").json().path("details").path("kind").asText())
        .isEqualTo("DeleteOptions");
  }

  @Test
  void resourceVersionMatch_isValidatedAsListOptions() {
    assertThat(api.get(CONFIGMAPS + "?resourceVersionMatch=Exact").json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
         "reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{
         "reason":"FieldValueForbidden",
         "message":"Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
         "field":"resourceVersionMatch"}]},"code":422}"""));
    assertThat(api.get(CONFIGMAPS + "?resourceVersionMatch=Exact&resourceVersion=0").json().path("message").asText())
        .isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "
            + "\"exact\" is forbidden for resourceVersion \"0\"");
    assertThat(api.get(CONFIGMAPS + "?resourceVersionMatch=Latest&resourceVersion=1").json().path("message")
        .asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Unsupported value: "
            + "\"Latest\": supported values: \"Exact\", \"NotOlderThan\", \"\"");
    assertThat(api.get(CONFIGMAPS + "?resourceVersionMatch=Bogus&continue=abc").json().path("message").asText())
        .isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is "
            + "forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is "
            + "forbidden when continue is provided, resourceVersionMatch: Unsupported value: \"Bogus\": supported "
            + "values: \"Exact\", \"NotOlderThan\", \"\"]");
  }
}

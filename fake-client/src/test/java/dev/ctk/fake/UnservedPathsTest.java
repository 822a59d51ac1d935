package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What kube-apiserver answers for paths nobody serves: its plain-text {@code 404 page not found} outside its own API
 * groups (an unknown group, a CRD group's unknown version or resource, a path outside /api and /apis), a NotFound
 * Status inside them.
 */
class UnservedPathsTest {

  private static final String STATUS = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":"
      + "\"Failure\",\"message\":\"the server could not find the requested resource\",\"reason\":\"NotFound\","
      + "\"details\":{},\"code\":404}";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(Fixtures.networkCrd()).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void unknownGroup_crdGroupsUnknownVersion_andNonApiPaths_answerPlainText() {
    String group = Fixtures.networkCrd().getSpec().getGroup();
    for (String path : new String[] {"/apis/nope.example.com", "/apis/nope.example.com/v1",
        "/apis/nope.example.com/v1/namespaces/default/widgets", "/apis/nope.example.com/v1/widgets?watch=true",
        "/apis/" + group + "/v9", "/apis/" + group + "/v1/namespaces/default/nopes", "/nope"}) {
      RawApi.Reply reply = api.get(path);
      assertThat(reply.code() + " " + reply.contentType() + " " + reply.body()).as(path)
          .isEqualTo("404 text/plain; charset=utf-8 404 page not found\n");
    }
    assertThat(api.post("/apis/nope.example.com/v1/namespaces/default/widgets", "{}").body())
        .isEqualTo("404 page not found\n");
  }

  @Test
  void builtinGroupsAndTheCoreGroup_answerAStatus() {
    for (String path : new String[] {"/apis/apps/v9", "/apis/apps/v9/namespaces/default/deployments", "/api/v9/pods",
        "/apis/apps/v1/nopes", "/apis/apps/v1/nopes?watch=true"}) {
      RawApi.Reply reply = api.get(path);
      assertThat(reply.code() + " " + reply.body()).as(path).isEqualTo("404 " + STATUS);
    }
  }

  @Test
  void inProcessClient_seesThePlainText404Too() {
    FakeCluster inProcess = FakeCluster.builder().withClientTransport(ClientTransport.IN_PROCESS).build();
    try (inProcess; var client = inProcess.newClient()) {
      var http = client.getHttpClient();
      var request = http.newHttpRequestBuilder().uri(client.getConfiguration().getMasterUrl() + "apis/nope.example.com")
          .build();
      var response = http.sendAsync(request, String.class).join();
      assertThat(response.code() + " " + response.body()).isEqualTo("404 404 page not found\n");
    }
  }
}

package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.deployment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Each kind of API fault as a fabric8 client sees it, and as the journal and the firings record it. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class ApiFaultTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(10);

  private FakeCluster cluster;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of("k", "v"))).build();
    client = cluster.client();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private ConfigMap web() {
    return client.configMaps().inNamespace("default").withName("web").get();
  }

  private KubernetesClientException failureOf(Runnable call) {
    return catchThrowableOfType(KubernetesClientException.class, call::run);
  }

  @Test
  void conflict_answersKubesOptimisticLockStatus_andStoresNothing() {
    FaultRule rule = cluster.faults().when(RequestPattern.update("ConfigMap").named("default", "web")).once()
        .answer(ApiFault.conflict());
    ConfigMap web = web();
    web.setData(Map.of("k", "changed"));

    KubernetesClientException e = failureOf(() -> client.configMaps().inNamespace("default").resource(web).update());

    assertThat(e.getCode()).isEqualTo(409);
    Status status = e.getStatus();
    assertThat(status.getReason()).isEqualTo("Conflict");
    assertThat(status.getMessage()).isEqualTo("Operation cannot be fulfilled on configmaps \"web\": the object has "
        + "been modified; please apply your changes to the latest version and try again");
    assertThat(status.getDetails().getName()).isEqualTo("web");
    assertThat(status.getDetails().getKind()).isEqualTo("configmaps");
    assertThat(web().getData()).containsEntry("k", "v");

    ApiRequestRecord record = cluster.requests().entries(RequestPattern.update("ConfigMap")).get(0);
    assertThat(record.summary()).isEqualTo("#" + record.sequence() + " update configmaps default/web (resourceVersion="
        + web.getMetadata().getResourceVersion() + ") -> 409 [fault: 409 Conflict]");
    assertThat(rule.firings()).hasSize(1);
    FaultFiring firing = cluster.faults().firings().get(0);
    assertThat(firing.sequence()).isEqualTo(record.sequence());
    assertThat(firing.time()).isEqualTo(record.time());
    assertThat(firing.toString()).isEqualTo("#" + record.sequence() + " update configmaps default/web "
        + "(resourceVersion=" + web.getMetadata().getResourceVersion() + ") <- 409 Conflict [when update ConfigMap "
        + "default/web: once -> 409 Conflict]");
    assertThat(rule.isExhausted()).isTrue();

    // the next update is served normally
    assertThat(client.configMaps().inNamespace("default").resource(web).update().getData())
        .containsEntry("k", "changed");
  }

  @Test
  void conflict_onACreate_namesTheObjectOfTheBody_andKeepsTheGroup() {
    cluster.faults().when(RequestPattern.create("Deployment")).answer(ApiFault.conflict());
    KubernetesClientException e = failureOf(() -> client.apps().deployments().inNamespace("default")
        .resource(deployment("api", "nginx:1")).create());
    assertThat(e.getCode()).isEqualTo(409);
    assertThat(e.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on deployments.apps \"api\": "
        + "the object has been modified; please apply your changes to the latest version and try again");
    assertThat(e.getStatus().getDetails().getGroup()).isEqualTo("apps");
  }

  @Test
  void invalid_answers422WithKubesMessage() {
    cluster.faults().when(RequestPattern.create("ConfigMap")).answer(ApiFault.invalid("data.k: Invalid value: "
        + "\"x\": must be a number"));
    KubernetesClientException e = failureOf(() -> client.configMaps().inNamespace("default")
        .resource(configMap("other", Map.of("k", "x"))).create());
    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(e.getStatus().getMessage()).isEqualTo("ConfigMap \"other\" is invalid: data.k: Invalid value: \"x\": "
        + "must be a number");
    assertThat(e.getStatus().getDetails().getKind()).isEqualTo("ConfigMap");
    assertThat(e.getStatus().getDetails().getCauses()).hasSize(1);
    assertThat(client.configMaps().inNamespace("default").withName("other").get()).isNull();
  }

  @Test
  void tooManyRequests_answers429WithRetryAfterInWholeSeconds() throws Exception {
    cluster.faults().when(RequestPattern.get("ConfigMap")).answer(ApiFault.tooManyRequests(Duration.ofMillis(1500)));

    KubernetesClientException e = failureOf(this::web);
    assertThat(e.getCode()).isEqualTo(429);
    assertThat(e.getStatus().getReason()).isEqualTo("TooManyRequests");
    assertThat(e.getStatus().getMessage()).isEqualTo("Too many requests, please try again later.");
    assertThat(e.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(2);

    HttpResponse<String> raw = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(cluster.url() + "/api/v1/namespaces/default/configmaps/web")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(raw.statusCode()).isEqualTo(429);
    assertThat(raw.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(cluster.faults().firings()).extracting(FaultFiring::fault)
        .containsExactly("429 TooManyRequests (Retry-After: 2)", "429 TooManyRequests (Retry-After: 2)");
    assertThat(ApiFault.tooManyRequests(Duration.ZERO).toString()).isEqualTo("429 TooManyRequests (Retry-After: 1)");
  }

  @Test
  void internalError_andServiceUnavailable_andAnyStatus() {
    FaultRule internal = cluster.faults().when(RequestPattern.get("ConfigMap")).once()
        .answer(ApiFault.internalError("etcdserver: request timed out"));
    KubernetesClientException e500 = failureOf(this::web);
    assertThat(e500.getCode()).isEqualTo(500);
    assertThat(e500.getStatus().getReason()).isEqualTo("InternalError");
    assertThat(e500.getStatus().getMessage()).isEqualTo("Internal error occurred: etcdserver: request timed out");
    internal.remove();

    FaultRule unavailable = cluster.faults().when(RequestPattern.get("ConfigMap")).once()
        .answer(ApiFault.serviceUnavailable());
    KubernetesClientException e503 = failureOf(this::web);
    assertThat(e503.getCode()).isEqualTo(503);
    assertThat(e503.getStatus().getReason()).isEqualTo("ServiceUnavailable");
    assertThat(e503.getStatus().getMessage()).isEqualTo("the server is currently unable to handle the request");
    unavailable.remove();

    cluster.faults().when(RequestPattern.delete("ConfigMap")).answer(ApiFault.status(403, "Forbidden",
        "configmaps \"web\" is forbidden: User \"ctk\" cannot delete resource"));
    KubernetesClientException e403 = failureOf(() -> client.configMaps().inNamespace("default").withName("web")
        .delete());
    assertThat(e403.getCode()).isEqualTo(403);
    assertThat(e403.getStatus().getMessage()).isEqualTo("configmaps \"web\" is forbidden: User \"ctk\" cannot "
        + "delete resource");
    assertThat(web()).isNotNull();
    assertThat(cluster.faults().firings()).extracting(FaultFiring::fault).containsExactly(
        "500 InternalError: etcdserver: request timed out", "503 ServiceUnavailable",
        "403 Forbidden: configmaps \"web\" is forbidden: User \"ctk\" cannot delete resource");
  }

  @Test
  void dropConnection_failsTheClientCallWithAnIoError_andIsJournaledAsCode0() {
    cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.dropConnection());

    KubernetesClientException e = failureOf(this::web);

    assertThat(e).hasCauseInstanceOf(IOException.class);
    ApiRequestRecord record = cluster.requests().entries(RequestPattern.get("ConfigMap")).get(0);
    assertThat(record.code()).isZero();
    assertThat(record.summary()).isEqualTo("#" + record.sequence() + " get configmaps default/web -> connection "
        + "dropped [fault: drop connection]");
    assertThat(web().getData()).containsEntry("k", "v");
  }

  @Test
  void delay_servesTheRequestWhenTheDelayEnds_afterARequestReceivedLater() {
    cluster.faults().when(RequestPattern.get("ConfigMap").named("default", "web")).once()
        .answer(ApiFault.delay(Duration.ofSeconds(2)));
    long before = cluster.requests().lastSequence();

    CompletableFuture<ConfigMap> delayedGet = CompletableFuture.supplyAsync(this::web);
    await("the delayed GET was received").atMost(WAIT).until(() -> cluster.requests().lastSequence() > before);
    ConfigMap web = client.configMaps().inNamespace("default").withName("web")
        .edit(c -> {
          c.setData(Map.of("k", "written while the GET waited"));
          return c;
        });

    // the GET was processed after the delay: it reads the write that was received after it
    assertThat(delayedGet.join().getData()).containsEntry("k", "written while the GET waited");
    List<ApiRequestRecord> gets = cluster.requests().entries(RequestPattern.get("ConfigMap"));
    assertThat(gets.get(0).sequence()).isEqualTo(before + 1);
    assertThat(gets.get(0).fault()).isEqualTo("delay 2s");
    assertThat(web.getMetadata().getResourceVersion()).isEqualTo(delayedGet.join().getMetadata()
        .getResourceVersion());
  }

  @Test
  void delay_describesItsDurationAsKubePrintsDurations() {
    assertThat(ApiFault.delay(Duration.ofMillis(250))).hasToString("delay 250ms");
    assertThat(ApiFault.delay(Duration.ofMillis(1500))).hasToString("delay 1.5s");
    assertThat(ApiFault.delay(Duration.ofSeconds(2))).hasToString("delay 2s");
    assertThat(ApiFault.delay(Duration.ofMinutes(2))).hasToString("delay 2m");
    assertThat(ApiFault.delay(Duration.ofSeconds(90))).hasToString("delay 1m30s");
    assertThat(ApiFault.delay(Duration.ofHours(1).plusMillis(2500))).hasToString("delay 1h2.5s");
    assertThat(ApiFault.delay(Duration.ofNanos(1_500_000))).hasToString("delay 1.5ms");
  }
}

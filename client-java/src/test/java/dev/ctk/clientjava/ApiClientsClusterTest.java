package dev.ctk.clientjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One body, every mode: the {@code ApiClient} of {@code ApiClients.forHarness} reaches the test's
 * cluster with its credentials (plain HTTP on the fake; TLS, the server's CA and the admin token on
 * a real kube-apiserver) and sees what the fabric8 client sees.
 */
@ControllerTest
@AcrossModes
class ApiClientsClusterTest {

  @Test
  void reads_and_writes_what_the_fabric8_client_sees(KubernetesClient client,
      ControllerHarness harness) throws ApiException {
    // GIVEN
    ApiClient apiClient = ApiClients.forHarness(harness);
    CoreV1Api core = new CoreV1Api(apiClient);
    // WHEN
    core.createNamespacedConfigMap(harness.namespace(), new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("written-by-client-java"))
        .data(Map.of("greeting", "hello"))).execute();
    // THEN
    assertThat(client.configMaps().withName("written-by-client-java").get().getData())
        .containsEntry("greeting", "hello");
    assertThat(core.readNamespacedConfigMap("written-by-client-java", harness.namespace())
        .execute().getMetadata().getResourceVersion())
        .isEqualTo(client.configMaps().withName("written-by-client-java").get().getMetadata()
            .getResourceVersion());
    assertThat(new VersionApi(apiClient).getCode().execute().getMajor()).isEqualTo("1");
  }

  @Test
  void gets_the_api_server_s_status_for_a_conflict(ControllerHarness harness) throws ApiException {
    // GIVEN
    CoreV1Api core = new CoreV1Api(ApiClients.forHarness(harness));
    V1ConfigMap created = core.createNamespacedConfigMap(harness.namespace(), new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("contended"))).execute();
    core.replaceNamespacedConfigMap("contended", harness.namespace(),
        created.data(Map.of("first", "write"))).execute();
    // WHEN
    ApiException conflict = catchThrowableOfType(ApiException.class,
        () -> core.replaceNamespacedConfigMap("contended", harness.namespace(),
            created.data(Map.of("second", "write"))).execute());
    // THEN
    assertThat(conflict.getCode()).isEqualTo(409);
    assertThat(conflict.getResponseBody()).contains("\"reason\":\"Conflict\"");
  }
}

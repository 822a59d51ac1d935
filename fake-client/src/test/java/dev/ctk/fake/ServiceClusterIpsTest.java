package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Service's {@code clusterIP}/{@code clusterIPs} on update, with kube 1.32's causes: its pre-validation answers
 * alone (first value must match, one IP per family), then the update rule (may not change once set); values left out
 * are kept; a change to ExternalName drops the addresses it no longer needs.
 */
class ServiceClusterIpsTest {

  private static final String SERVICES = "/api/v1/namespaces/default/services";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    api.post(SERVICES, "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"clusterIP\":\"10.96.0.50\","
        + "\"selector\":{\"app\":\"web\"},\"ports\":[{\"port\":80}]}}");
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void clusterIpsAlone_mustMatchClusterIp_andIsNotAlsoReportedAsChanged() {
    assertThat(patch("{\"spec\":{\"clusterIPs\":[\"10.96.0.51\"]}}")).isEqualTo("422 Service \"web\" is invalid: "
        + "spec.clusterIPs: Invalid value: []string{\"10.96.0.51\"}: first value must match `clusterIP` | "
        + "spec.clusterIPs: Invalid value: []string{\"10.96.0.51\"}: first value must match `clusterIP`");
    assertThat(patch("{\"spec\":{\"clusterIPs\":[\"10.96.0.51\",\"10.96.0.52\"]}}")).isEqualTo("422 Service \"web\" "
        + "is invalid: [spec.clusterIPs: Invalid value: []string{\"10.96.0.51\", \"10.96.0.52\"}: first value must "
        + "match `clusterIP`, spec.clusterIPs: Invalid value: []string{\"10.96.0.51\", \"10.96.0.52\"}: may specify "
        + "no more than one IP for each IP family] | spec.clusterIPs: Invalid value: []string{\"10.96.0.51\", "
        + "\"10.96.0.52\"}: first value must match `clusterIP` | spec.clusterIPs: Invalid value: "
        + "[]string{\"10.96.0.51\", \"10.96.0.52\"}: may specify no more than one IP for each IP family");
  }

  @Test
  void clusterIpChanged_mayNotChangeOnceSet_andEmptiedFieldsAreKept() {
    String immutable = "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.51\"}: may not change once set";
    assertThat(patch("{\"spec\":{\"clusterIP\":\"10.96.0.51\"}}"))
        .isEqualTo("422 Service \"web\" is invalid: " + immutable + " | " + immutable);
    assertThat(patch("{\"spec\":{\"clusterIP\":\"\",\"clusterIPs\":null}}")).isEqualTo("200 10.96.0.50 "
        + "[\"10.96.0.50\"] [\"IPv4\"] SingleStack");
  }

  @Test
  void toExternalName_dropsTheAddresses_andThenRefusesFamilies() {
    assertThat(patch("{\"spec\":{\"type\":\"ExternalName\",\"externalName\":\"web.example.com\"}}"))
        .isEqualTo("200 null null null null");
    assertThat(patch("{\"spec\":{\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\"}}"))
        .isEqualTo("422 Service \"web\" is invalid: [spec.ipFamilies: Forbidden: may not be set for ExternalName "
            + "services, spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services] | spec.ipFamilies: "
            + "Forbidden: may not be set for ExternalName services | spec.ipFamilyPolicy: Forbidden: may not be set "
            + "for ExternalName services");
    assertThat(patch("{\"spec\":{\"type\":\"ClusterIP\",\"externalName\":null}}")).startsWith("200 10.96.0.");
  }

  @Test
  void headlessWithoutSelector_listsBothFamilies_requireDualStack() {
    JsonNode headless = api.post(SERVICES, "{\"metadata\":{\"name\":\"h\"},\"spec\":{\"clusterIP\":\"None\","
        + "\"ports\":[{\"port\":80}]}}").json().path("spec");
    assertThat(headless.path("ipFamilies") + " " + headless.path("ipFamilyPolicy").asText())
        .isEqualTo("[\"IPv4\",\"IPv6\"] RequireDualStack");
  }

  /** {@code code message | field: cause ...} for an error, {@code code clusterIP clusterIPs families policy} else. */
  private String patch(String body) {
    RawApi.Reply reply = api.patch(SERVICES + "/web", "application/merge-patch+json", body);
    JsonNode json = reply.json();
    if (reply.code() != 200) {
      StringBuilder out = new StringBuilder(reply.code() + " " + json.path("message").asText());
      json.at("/details/causes").forEach(c -> out.append(" | ").append(c.path("field").asText()).append(": ")
          .append(c.path("message").asText()));
      return out.toString();
    }
    JsonNode spec = json.path("spec");
    return reply.code() + " " + text(spec.get("clusterIP")) + " " + text(spec.get("clusterIPs")) + " "
        + text(spec.get("ipFamilies")) + " " + text(spec.get("ipFamilyPolicy"));
  }

  private static String text(JsonNode node) {
    return node == null ? "null" : node.isValueNode() ? node.asText() : node.toString();
  }
}

package dev.ctk.fake.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.NameGenerator;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Cluster IPs and node ports are unique among the stored Services and free again once released (by a delete, or an
 * update that changes them), as the allocation index follows the store's commits.
 */
class ServiceAddressesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC);

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry, new ObjectRules(new NameGenerator(7L), CLOCK), 100);
  private final ResourceType services = registry.byPath("", "v1", "services").orElseThrow();

  ServiceAddressesTest() {
    store.create(registry.byPath("", "v1", "namespaces").orElseThrow(), null, json("{\"metadata\":{\"name\":\"a\"}}"),
        WriteOptions.API);
    store.create(registry.byPath("", "v1", "namespaces").orElseThrow(), null, json("{\"metadata\":{\"name\":\"b\"}}"),
        WriteOptions.API);
  }

  @Test
  void clusterIp_lowestFree_acrossNamespaces_andReusedOnceReleased() {
    assertThat(clusterIp(create("a", "one", "ClusterIP"))).isEqualTo("10.96.0.2");
    assertThat(clusterIp(create("b", "two", "ClusterIP"))).isEqualTo("10.96.0.3");
    assertThat(clusterIp(create("a", "three", "ClusterIP"))).isEqualTo("10.96.0.4");

    store.delete(services, "b", "two", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(clusterIp(create("a", "four", "ClusterIP"))).isEqualTo("10.96.0.3");
    assertThat(clusterIp(create("a", "five", "ClusterIP"))).isEqualTo("10.96.0.5");
  }

  @Test
  void clusterIp_dryRunReservesNothing() {
    ObjectNode dryRun = store.create(services, "a", service("probe", "ClusterIP"), WriteOptions.DRY_RUN);

    assertThat(clusterIp(dryRun)).isEqualTo("10.96.0.2");
    assertThat(clusterIp(create("a", "real", "ClusterIP"))).isEqualTo("10.96.0.2");
  }

  @Test
  void clusterIp_requestedWhileHeld_isRefused_thenGrantedAfterTheHolderIsDeleted() {
    create("a", "holder", "ClusterIP");
    ObjectNode wanted = service("wanted", "ClusterIP");
    ((ObjectNode) wanted.get("spec")).put("clusterIP", "10.96.0.2");

    ApiError refused = catchThrowableOfType(ApiError.class,
        () -> store.create(services, "b", wanted, WriteOptions.API));

    assertThat(refused.getMessage()).isEqualTo("Service \"wanted\" is invalid: spec.clusterIPs: Invalid value: "
        + "[]string{\"10.96.0.2\"}: failed to allocate IP 10.96.0.2: provided IP is already allocated");

    store.delete(services, "a", "holder", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(clusterIp(store.create(services, "b", wanted, WriteOptions.API))).isEqualTo("10.96.0.2");
    assertThat(clusterIp(create("a", "next", "ClusterIP"))).isEqualTo("10.96.0.3");
  }

  @Test
  void headlessServices_manyHoldNone_andNoneIsNeverHandedOut() {
    ObjectNode headless = service("hl1", "ClusterIP");
    ((ObjectNode) headless.get("spec")).put("clusterIP", "None");
    store.create(services, "a", headless, WriteOptions.API);
    ((ObjectNode) headless.get("metadata")).put("name", "hl2");
    store.create(services, "a", headless, WriteOptions.API);
    store.delete(services, "a", "hl1", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(clusterIp(store.get(services, "a", "hl2"))).isEqualTo("None");
    assertThat(clusterIp(create("a", "plain", "ClusterIP"))).isEqualTo("10.96.0.2");
  }

  @Test
  void nodePort_lowestFree_reusedAfterDelete_andAfterAnUpdateMovesIt() {
    assertThat(nodePort(create("a", "one", "NodePort"))).isEqualTo(30000);
    assertThat(nodePort(create("b", "two", "NodePort"))).isEqualTo(30001);

    store.delete(services, "a", "one", DeletePreconditions.NONE, WriteOptions.API);
    assertThat(nodePort(create("a", "three", "NodePort"))).isEqualTo(30000);

    store.patch(services, "b", "two", null, copy -> {
      ((ObjectNode) copy.path("spec").path("ports").get(0)).put("nodePort", 30100);
      return copy;
    }, WriteOptions.API);
    assertThat(nodePort(create("a", "four", "NodePort"))).isEqualTo(30001);
    assertThat(nodePort(create("a", "five", "NodePort"))).isEqualTo(30002);
  }

  @Test
  void nodePort_severalPortsOfOneService_getDistinctFreePorts() {
    create("a", "one", "NodePort");
    ObjectNode two = service("two", "NodePort");
    ((ObjectNode) two.get("spec")).putArray("ports").add(json("{\"name\":\"http\",\"port\":80}"))
        .add(json("{\"name\":\"https\",\"port\":443,\"nodePort\":30001}"))
        .add(json("{\"name\":\"admin\",\"port\":8080}"));

    JsonNode ports = store.create(services, "a", two, WriteOptions.API).path("spec").path("ports");

    assertThat(ports.path(0).path("nodePort").asInt()).isEqualTo(30002);
    assertThat(ports.path(1).path("nodePort").asInt()).isEqualTo(30001);
    assertThat(ports.path(2).path("nodePort").asInt()).isEqualTo(30003);
  }

  @Test
  void counts_aValueHeldTwiceStaysInUseUntilBothRelease() {
    ServiceAddresses addresses = new ServiceAddresses();
    JsonNode first = json("{\"spec\":{\"clusterIP\":\"10.96.0.2\",\"ports\":[{\"nodePort\":30000}]}}");
    JsonNode second = json("{\"spec\":{\"clusterIPs\":[\"10.96.0.2\"],\"ports\":[{\"nodePort\":30000}]}}");
    addresses.changed(null, first);
    addresses.changed(null, second);

    addresses.changed(first, null);
    assertThat(addresses.ipInUse("10.96.0.2")).isTrue();
    assertThat(addresses.firstFreeIpOffset(2)).isEqualTo(3);
    assertThat(addresses.nodePortInUse(30000)).isTrue();
    assertThat(addresses.firstFreeNodePort(30000)).isEqualTo(30001);

    addresses.changed(second, null);
    assertThat(addresses.ipInUse("10.96.0.2")).isFalse();
    assertThat(addresses.firstFreeIpOffset(2)).isEqualTo(2);
    assertThat(addresses.firstFreeNodePort(30000)).isEqualTo(30000);
  }

  @Test
  void offsets_onlyForAddressesWrittenAsTheAllocatorWritesThem() {
    assertThat(ServiceAllocation.offsetOf("10.96.0.2")).isEqualTo(2);
    assertThat(ServiceAllocation.offsetOf("10.111.255.255")).isEqualTo((1 << 20) - 1);
    assertThat(ServiceAllocation.offsetOf("10.112.0.0")).isEqualTo(-1);
    assertThat(ServiceAllocation.offsetOf("10.96.0.02")).isEqualTo(-1);
    assertThat(ServiceAllocation.offsetOf("None")).isEqualTo(-1);
    assertThat(ServiceAllocation.offsetOf("")).isEqualTo(-1);
  }

  private ObjectNode create(String namespace, String name, String type) {
    return store.create(services, namespace, service(name, type), WriteOptions.API);
  }

  private static ObjectNode service(String name, String type) {
    return json("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"type\":\"" + type
        + "\",\"selector\":{\"app\":\"web\"},\"ports\":[{\"port\":80}]}}");
  }

  private static String clusterIp(JsonNode service) {
    return service.path("spec").path("clusterIP").asText();
  }

  private static int nodePort(JsonNode service) {
    return service.path("spec").path("ports").path(0).path("nodePort").asInt();
  }

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

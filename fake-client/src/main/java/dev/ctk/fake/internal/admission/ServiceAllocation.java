package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import java.util.HashSet;
import java.util.Set;

/**
 * What kube's Service registry allocates: a cluster IP from the service CIDR {@value #SERVICE_CIDR} (the lowest
 * free address from {@code 10.96.0.1} upwards, where kube picks at random; {@code 10.96.0.1} is kube's
 * {@code kubernetes} Service, which the fake does not create but does not hand out either), {@code clusterIPs},
 * {@code ipFamilies [IPv4]} and {@code ipFamilyPolicy SingleStack} (RequireDualStack for a headless Service
 * without selector, as kube does), and node ports from 30000-32767 (lowest free first) for NodePort and
 * LoadBalancer. On update, values the body leaves out are kept from the stored Service, as kube does.
 *
 * <p>Free means not used by any stored Service ({@link ServiceAddresses}, kept from the store's commits); a dry run
 * allocates without reserving.
 */
final class ServiceAllocation {

  static final String SERVICE_CIDR = "10.96.0.0/12";
  private static final long BASE = (10L << 24) | (96L << 16);
  private static final long SIZE = 1L << 20;
  static final int NODE_PORT_MIN = 30000;
  static final int NODE_PORT_MAX = 32767;

  private ServiceAllocation() {}

  /** Allocates on create; {@code existing} holds what the stored Services (all namespaces) use. */
  static FieldErrors create(ObjectNode service, ServiceAddresses existing) {
    FieldErrors errors = new FieldErrors();
    ObjectNode spec = Json.object(service, "spec");
    String type = spec.path("type").asText();
    if (type.equals("ExternalName")) {
      return errors;
    }
    String clusterIp = spec.path("clusterIP").asText("");
    if (clusterIp.isEmpty() && spec.path("clusterIPs").size() > 0) {
      clusterIp = spec.path("clusterIPs").get(0).asText("");
    }
    if (clusterIp.isEmpty()) {
      clusterIp = freeIp(existing);
    } else if (!clusterIp.equals("None")) {
      Long address = parse(clusterIp);
      if (address == null) {
        errors.invalid("spec.clusterIPs[0]", clusterIp,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
        return errors;
      }
      String rendered = "[]string{" + GoText.quote(clusterIp) + "}";
      if (address < BASE || address >= BASE + SIZE) {
        errors.invalidRendered("spec.clusterIPs", rendered, "failed to allocate IP " + clusterIp
            + ": the provided IP (" + clusterIp + ") is not in the valid range. The range of valid IPs is "
            + SERVICE_CIDR);
        return errors;
      }
      if (existing.ipInUse(clusterIp)) {
        errors.invalidRendered("spec.clusterIPs", rendered, "failed to allocate IP " + clusterIp
            + ": provided IP is already allocated");
        return errors;
      }
    }
    spec.put("clusterIP", clusterIp);
    spec.putArray("clusterIPs").add(clusterIp);
    boolean headlessWithoutSelector = clusterIp.equals("None") && spec.path("selector").isEmpty();
    Json.putIfAbsent(spec, "ipFamilyPolicy", headlessWithoutSelector ? "RequireDualStack" : "SingleStack");
    if (spec.path("ipFamilies").isEmpty()) {
      spec.putArray("ipFamilies").add("IPv4");
    }
    nodePorts(spec, existing, null);
    return errors;
  }

  /** On update: keeps allocated values the body leaves out, allocates what a type change newly needs. */
  static void update(ObjectNode current, ObjectNode next, ServiceAddresses existing) {
    JsonNode old = current.path("spec");
    ObjectNode spec = Json.object(next, "spec");
    String oldType = old.path("type").asText("ClusterIP");
    String type = spec.path("type").asText();
    if (type.equals("ExternalName")) {
      return;
    }
    if (oldType.equals("ExternalName")) {
      create(next, existing);
      return;
    }
    if (spec.path("clusterIP").asText("").isEmpty() && old.has("clusterIP")) {
      spec.set("clusterIP", old.get("clusterIP").deepCopy());
    }
    if (spec.path("clusterIPs").isEmpty() && old.has("clusterIPs")) {
      spec.set("clusterIPs", old.get("clusterIPs").deepCopy());
    }
    // as kube normalizes: a changed clusterIP with unchanged clusterIPs is a change of clusterIPs[0]
    if (!spec.path("clusterIPs").isEmpty() && sameClusterIps(old, spec)
        && !spec.path("clusterIP").asText().equals(old.path("clusterIP").asText())) {
      ((ArrayNode) spec.get("clusterIPs")).set(0, spec.get("clusterIP").deepCopy());
    }
    if (Json.absent(spec, "ipFamilyPolicy") && old.has("ipFamilyPolicy")) {
      spec.set("ipFamilyPolicy", old.get("ipFamilyPolicy").deepCopy());
    }
    if (spec.path("ipFamilies").isEmpty() && old.has("ipFamilies")) {
      spec.set("ipFamilies", old.get("ipFamilies").deepCopy());
    }
    nodePorts(spec, existing, old);
  }

  /** Whether the update kept the stored {@code clusterIPs} (then a changed {@code clusterIP} is what counts). */
  private static boolean sameClusterIps(JsonNode old, JsonNode spec) {
    return old.path("clusterIPs").equals(spec.path("clusterIPs"));
  }

  private static void nodePorts(ObjectNode spec, ServiceAddresses existing, JsonNode old) {
    String type = spec.path("type").asText();
    boolean needsNodePorts = type.equals("NodePort")
        || (type.equals("LoadBalancer") && spec.path("allocateLoadBalancerNodePorts").asBoolean(true));
    if (!needsNodePorts) {
      return;
    }
    // taken by this Service: the ports it names, then the ones allocated below
    Set<Integer> taken = new HashSet<>();
    for (JsonNode port : spec.path("ports")) {
      taken.add(port.path("nodePort").asInt(0));
    }
    for (JsonNode node : spec.path("ports")) {
      if (!(node instanceof ObjectNode port) || port.path("nodePort").asInt(0) != 0) {
        continue;
      }
      int kept = old == null ? 0 : oldNodePort(old, port);
      if (kept != 0) {
        port.put("nodePort", kept);
        continue;
      }
      for (int candidate = existing.firstFreeNodePort(NODE_PORT_MIN); candidate >= 0;
          candidate = existing.firstFreeNodePort(candidate + 1)) {
        if (taken.add(candidate)) {
          port.put("nodePort", candidate);
          break;
        }
      }
    }
  }

  private static int oldNodePort(JsonNode old, JsonNode port) {
    for (JsonNode candidate : old.path("ports")) {
      if (candidate.path("port").asInt() == port.path("port").asInt()
          && candidate.path("protocol").asText("TCP").equals(port.path("protocol").asText("TCP"))) {
        return candidate.path("nodePort").asInt(0);
      }
    }
    return 0;
  }

  /** The lowest address from {@code 10.96.0.2} up (the broadcast address excluded) no stored Service holds. */
  private static String freeIp(ServiceAddresses used) {
    long offset = used.firstFreeIpOffset(2);
    if (offset < SIZE - 1) {
      return format(BASE + offset);
    }
    throw ApiError.internal("failed to allocate a serviceIP: range is full");
  }

  /**
   * The offset of an address in the service CIDR from its base, when {@code ip} is written as {@link #format} writes
   * it; else -1 (outside the CIDR, not IPv4, or written otherwise, e.g. with leading zeros).
   */
  static long offsetOf(String ip) {
    Long address = parse(ip);
    if (address == null || address < BASE || address >= BASE + SIZE || !format(address).equals(ip)) {
      return -1;
    }
    return address - BASE;
  }

  static String format(long address) {
    return ((address >> 24) & 255) + "." + ((address >> 16) & 255) + "." + ((address >> 8) & 255) + "."
        + (address & 255);
  }

  private static Long parse(String ip) {
    String[] parts = ip.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    long value = 0;
    for (String part : parts) {
      try {
        int octet = Integer.parseInt(part);
        if (octet < 0 || octet > 255) {
          return null;
        }
        value = (value << 8) | octet;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return value;
  }
}

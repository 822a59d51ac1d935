package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the stored Services hold, as {@link ServiceAllocation} asks it: the cluster IPs ({@code spec.clusterIP} and
 * every {@code spec.clusterIPs} entry, as text) and the node ports ({@code spec.ports[*].nodePort}) in use, kept up to
 * date from every committed change of a Service, so that an allocation costs the same with 10 or 100,000 Services
 * stored.
 *
 * <p>Each value is counted (two stored Services may hold the same one, e.g. seeded ones, or {@code None}); it is in
 * use while its count is positive. The lowest free address and port are found with bit sets: cluster IPs by offset in
 * the service CIDR (only values written as {@link ServiceAllocation#format} writes them, which are the only ones it
 * hands out), node ports in 30000-32767. Not thread-safe: the store calls it under its lock.
 */
final class ServiceAddresses {

  private final Map<String, Integer> ips = new HashMap<>();
  private final BitSet ipOffsets = new BitSet();
  private final Map<Integer, Integer> nodePorts = new HashMap<>();
  private final BitSet nodePortOffsets = new BitSet();

  /**
   * Records a committed change of a Service.
   *
   * @param before the Service as stored before ({@code null} on a create)
   * @param after the Service as stored now ({@code null} on a removal)
   */
  void changed(JsonNode before, JsonNode after) {
    if (before != null) {
      ipsOf(before).forEach(ip -> countIp(ip, -1));
      nodePortsOf(before).forEach(port -> countNodePort(port, -1));
    }
    if (after != null) {
      ipsOf(after).forEach(ip -> countIp(ip, 1));
      nodePortsOf(after).forEach(port -> countNodePort(port, 1));
    }
  }

  /** Whether a stored Service holds this cluster IP (compared as text). */
  boolean ipInUse(String ip) {
    return ips.containsKey(ip);
  }

  /** The offset from the CIDR base of the first address at or after {@code fromOffset} that no Service holds. */
  long firstFreeIpOffset(long fromOffset) {
    return ipOffsets.nextClearBit((int) fromOffset);
  }

  /** Whether a stored Service holds this node port. */
  boolean nodePortInUse(int port) {
    return nodePorts.containsKey(port);
  }

  /** The cluster IPs a Service holds, as text, as many times as it names them. */
  static List<String> ipsOf(JsonNode service) {
    List<String> out = new ArrayList<>();
    for (JsonNode ip : service.path("spec").path("clusterIPs")) {
      out.add(ip.asText());
    }
    out.add(service.path("spec").path("clusterIP").asText(""));
    return out;
  }

  /** The node ports a Service's ports name (0 for a port without one). */
  static List<Integer> nodePortsOf(JsonNode service) {
    List<Integer> out = new ArrayList<>();
    for (JsonNode port : service.path("spec").path("ports")) {
      out.add(port.path("nodePort").asInt(0));
    }
    return out;
  }

  private void countIp(String ip, int delta) {
    Integer count = ips.merge(ip, delta, Integer::sum);
    boolean used = count != null && count > 0;
    if (!used) {
      ips.remove(ip);
    }
    long offset = ServiceAllocation.offsetOf(ip);
    if (offset >= 0) {
      ipOffsets.set((int) offset, used);
    }
  }

  private void countNodePort(int port, int delta) {
    Integer count = nodePorts.merge(port, delta, Integer::sum);
    boolean used = count != null && count > 0;
    if (!used) {
      nodePorts.remove(port);
    }
    if (port >= ServiceAllocation.NODE_PORT_MIN && port <= ServiceAllocation.NODE_PORT_MAX) {
      nodePortOffsets.set(port - ServiceAllocation.NODE_PORT_MIN, used);
    }
  }

  /** The first node port at or after {@code from} (at least 30000) up to 32767 that no Service holds, or -1. */
  int firstFreeNodePort(int from) {
    int offset = nodePortOffsets.nextClearBit(from - ServiceAllocation.NODE_PORT_MIN);
    int port = ServiceAllocation.NODE_PORT_MIN + offset;
    return port <= ServiceAllocation.NODE_PORT_MAX ? port : -1;
  }
}

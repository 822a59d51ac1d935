package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A set of field paths, as kube's managedFields hold them: a tree whose nodes have members (paths that end there)
 * and children (paths that go on). A path can be both a member and a parent: its {@code fieldsV1} form then has a
 * {@code "."} entry.
 *
 * <p>Set operations work as kube's do: {@link #difference} and {@link #intersection} compare members and recurse into
 * children; {@link #recursiveDifference} also drops whatever lies below a member of the other set.
 *
 * <p>A set is built ({@link #insert}, {@link #of}, {@link #fromFieldsV1}) and never changed afterwards: the result of
 * an operation shares the parts it leaves unchanged with its operands (the operand itself when nothing changes), so
 * an update of an object with many fields does not copy its managers' sets. No node keeps an empty child, so
 * {@link #isEmpty} looks at one node.
 */
final class FieldSet {

  private final TreeSet<PathElement> members = new TreeSet<>();
  private final TreeMap<PathElement, FieldSet> children = new TreeMap<>();

  FieldSet() {}

  /** A set of the given paths. */
  static FieldSet of(List<List<PathElement>> paths) {
    FieldSet set = new FieldSet();
    paths.forEach(set::insert);
    return set;
  }

  /** Adds a path (an empty path adds nothing, as in kube); only while the set is built, before anything shares it. */
  void insert(List<PathElement> path) {
    if (path.isEmpty()) {
      return;
    }
    FieldSet node = this;
    for (int i = 0; i < path.size() - 1; i++) {
      node = node.children.computeIfAbsent(path.get(i), pe -> new FieldSet());
    }
    node.members.add(path.get(path.size() - 1));
  }

  /**
   * The child node of {@code element}, made if absent, for a walk that builds the set node by node (only while the
   * set is built; the walk must insert a member below it, since an empty child is never kept otherwise).
   */
  FieldSet childToBuild(PathElement element) {
    return children.computeIfAbsent(element, pe -> new FieldSet());
  }

  /** Adds {@code element} as a member of this node (only while the set is built). */
  void addMember(PathElement element) {
    members.add(element);
  }

  /** Whether the path is a member. */
  boolean has(List<PathElement> path) {
    if (path.isEmpty()) {
      return false;
    }
    FieldSet node = this;
    for (int i = 0; i < path.size() - 1; i++) {
      node = node.children.get(path.get(i));
      if (node == null) {
        return false;
      }
    }
    return node.members.contains(path.get(path.size() - 1));
  }

  /** Whether the single element is a member of this node. */
  boolean hasMember(PathElement element) {
    return members.contains(element);
  }

  /** The paths below {@code element} (relative to it); empty when there are none. */
  FieldSet withPrefix(PathElement element) {
    FieldSet child = children.get(element);
    return child == null ? new FieldSet() : child;
  }

  /** Whether the set has no path (no node keeps an empty child, so this looks at this node only). */
  boolean isEmpty() {
    return members.isEmpty() && children.isEmpty();
  }

  FieldSet union(FieldSet other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    FieldSet out = new FieldSet();
    out.members.addAll(members);
    out.members.addAll(other.members);
    out.children.putAll(children);
    other.children.forEach((pe, child) -> out.children.merge(pe, child, FieldSet::union));
    return out;
  }

  FieldSet intersection(FieldSet other) {
    FieldSet out = new FieldSet();
    for (PathElement pe : members) {
      if (other.members.contains(pe)) {
        out.members.add(pe);
      }
    }
    children.forEach((pe, child) -> {
      FieldSet theirs = other.children.get(pe);
      if (theirs != null) {
        out.putChild(pe, child.intersection(theirs));
      }
    });
    return out;
  }

  /** Members of this set not in {@code other}, node by node (a member of {@code other} keeps its children here). */
  FieldSet difference(FieldSet other) {
    if (other.isEmpty()) {
      return this;
    }
    FieldSet out = new FieldSet();
    for (PathElement pe : members) {
      if (!other.members.contains(pe)) {
        out.members.add(pe);
      }
    }
    children.forEach((pe, child) -> {
      FieldSet theirs = other.children.get(pe);
      out.putChild(pe, theirs == null ? child : child.difference(theirs));
    });
    return out;
  }

  /** Like {@link #difference}, and a member of {@code other} also removes everything below it. */
  FieldSet recursiveDifference(FieldSet other) {
    if (other.isEmpty()) {
      return this;
    }
    FieldSet out = new FieldSet();
    for (PathElement pe : members) {
      if (!other.members.contains(pe)) {
        out.members.add(pe);
      }
    }
    children.forEach((pe, child) -> {
      if (other.members.contains(pe)) {
        return;
      }
      FieldSet theirs = other.children.get(pe);
      out.putChild(pe, theirs == null ? child : child.recursiveDifference(theirs));
    });
    return out;
  }

  /**
   * This set with every declared field that has children made a member too, so removing the set removes such a
   * field whole (kube's {@code EnsureNamedFieldsAreMembers}).
   */
  FieldSet withNamedFieldsAsMembers(FieldType type) {
    FieldSet out = new FieldSet();
    out.members.addAll(members);
    children.forEach((pe, child) -> {
      FieldType childType;
      if (pe.isField()) {
        if (type.declares(pe.fieldName())) {
          out.members.add(pe);
        }
        childType = type.field(pe.fieldName());
      } else if (pe.kind() == PathElement.Kind.KEY) {
        childType = type.element();
      } else {
        childType = FieldType.DEDUCED;
      }
      out.putChild(pe, child.withNamedFieldsAsMembers(childType));
    });
    return out;
  }

  /** Every path, in kube's order: this node's members, then each child's paths. */
  List<List<PathElement>> paths() {
    List<List<PathElement>> out = new ArrayList<>();
    collect(new ArrayList<>(), out);
    return out;
  }

  private void collect(List<PathElement> prefix, List<List<PathElement>> out) {
    for (PathElement pe : members) {
      List<PathElement> path = new ArrayList<>(prefix);
      path.add(pe);
      out.add(path);
    }
    children.forEach((pe, child) -> {
      List<PathElement> path = new ArrayList<>(prefix);
      path.add(pe);
      child.collect(path, out);
    });
  }

  /** The {@code fieldsV1} object of this set. */
  ObjectNode toFieldsV1() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    write(out, false);
    return out;
  }

  /**
   * Writes the members and the non-empty children in one ordered pass: both are sorted the same way, and an element
   * that is both is written once, with its children and a {@code "."}.
   */
  private void write(ObjectNode out, boolean self) {
    if (self) {
      out.putObject(".");
    }
    Iterator<PathElement> memberIt = members.iterator();
    Iterator<Map.Entry<PathElement, FieldSet>> childIt = children.entrySet().iterator();
    PathElement member = memberIt.hasNext() ? memberIt.next() : null;
    Map.Entry<PathElement, FieldSet> child = nextNonEmpty(childIt);
    while (member != null || child != null) {
      int order = member == null ? 1 : child == null ? -1 : member.compareTo(child.getKey());
      if (order < 0) {
        out.putObject(member.serialize());
      } else {
        child.getValue().write(out.putObject(child.getKey().serialize()), order == 0);
        child = nextNonEmpty(childIt);
      }
      if (order <= 0) {
        member = memberIt.hasNext() ? memberIt.next() : null;
      }
    }
  }

  private static Map.Entry<PathElement, FieldSet> nextNonEmpty(Iterator<Map.Entry<PathElement, FieldSet>> it) {
    while (it.hasNext()) {
      Map.Entry<PathElement, FieldSet> next = it.next();
      if (!next.getValue().isEmpty()) {
        return next;
      }
    }
    return null;
  }

  /**
   * Reads a {@code fieldsV1} object.
   *
   * @throws IllegalArgumentException when it is not an object or a member name is malformed
   */
  static FieldSet fromFieldsV1(JsonNode fields) {
    if (fields == null || fields.isNull() || fields.isMissingNode()) {
      return new FieldSet();
    }
    if (!fields.isObject()) {
      throw new IllegalArgumentException("fieldsV1 must be a JSON object, got " + fields.getNodeType());
    }
    FieldSet set = new FieldSet();
    set.read(fields);
    return set;
  }

  private void read(JsonNode fields) {
    for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (entry.getKey().equals(".")) {
        continue;
      }
      PathElement pe = PathElement.parse(entry.getKey());
      if (pe == null) {
        continue;
      }
      JsonNode value = entry.getValue();
      if (!value.isObject()) {
        throw new IllegalArgumentException("the value of " + entry.getKey() + " must be a JSON object");
      }
      boolean member = value.isEmpty() || value.has(".");
      if (member) {
        members.add(pe);
      }
      if (value.size() > (member ? 1 : 0)) {   // a leaf ({} or {".": {}}) has no child set to read
        FieldSet child = new FieldSet();
        child.read(value);
        putChild(pe, child);
      }
    }
  }

  private void putChild(PathElement pe, FieldSet child) {
    if (!child.isEmpty()) {
      children.put(pe, child);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FieldSet other)) {
      return false;
    }
    return paths().equals(other.paths());
  }

  @Override
  public int hashCode() {
    return paths().size();
  }

  /** One path a line, as kube prints a set. */
  @Override
  public String toString() {
    List<String> lines = new ArrayList<>();
    for (List<PathElement> path : paths()) {
      lines.add(pathText(path));
    }
    return String.join("\n", lines);
  }

  /** kube's text of a path: {@code .spec.template.spec.containers[name="nginx"].image}. */
  static String pathText(List<PathElement> path) {
    StringBuilder out = new StringBuilder();
    path.forEach(out::append);
    return out.toString();
  }
}

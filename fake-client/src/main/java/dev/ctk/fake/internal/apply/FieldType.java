package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What server-side apply needs to know about the value at one position of an object: whether an object there is
 * merged key by key or replaced whole, how a list there merges (replaced whole, as a set, or item by item on key
 * fields), and the types one level down. The JSON value itself says whether it is an object, a list or a scalar.
 *
 * <p>Implementations: {@link #DEDUCED} (no schema: objects merge, lists are atomic), {@link BuiltinTypes} (struct
 * tags of the built-in kinds) and {@link CrdTypes} (a CustomResourceDefinition's OpenAPI schema).
 */
interface FieldType {

  /** How a list at this position merges. */
  enum ListKind {
    /** Replaced whole; owned as one field. */
    ATOMIC,
    /** Items are scalars, merged as a set ({@code x-kubernetes-list-type: set}). */
    SET,
    /** Items are objects identified by key fields ({@code x-kubernetes-list-type: map}). */
    MAP
  }

  /** Whether an object here is replaced whole ({@code +structType=atomic}, {@code x-kubernetes-map-type: atomic}). */
  boolean atomicObject();

  /** How a list here merges. */
  ListKind listKind();

  /** The key fields of a {@link ListKind#MAP} list, in declaration order. */
  List<String> listKeys();

  /** The default of a key field a list item may omit (e.g. {@code protocol: TCP} of ports), or {@code null}. */
  JsonNode keyDefault(String key);

  /** Whether {@code name} is a declared field of an object here (as opposed to a key of a free-form map). */
  boolean declares(String name);

  /** The type of the value of field {@code name} of an object here. */
  FieldType field(String name);

  /** The type of the items of a list here. */
  FieldType element();

  /** No schema: objects merge key by key and declare no fields, lists are atomic (kube's "deduced" type). */
  FieldType DEDUCED = new FieldType() {
    @Override
    public boolean atomicObject() {
      return false;
    }

    @Override
    public ListKind listKind() {
      return ListKind.ATOMIC;
    }

    @Override
    public List<String> listKeys() {
      return List.of();
    }

    @Override
    public JsonNode keyDefault(String key) {
      return null;
    }

    @Override
    public boolean declares(String name) {
      return false;
    }

    @Override
    public FieldType field(String name) {
      return this;
    }

    @Override
    public FieldType element() {
      return this;
    }

    @Override
    public String toString() {
      return "deduced";
    }
  };
}

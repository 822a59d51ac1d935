package dev.ctk.fake.internal.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.ctk.fake.internal.status.ApiError;
import java.util.Map;

/**
 * Fields of a protobuf body that client-java-proto's schema does not know: fields that Kubernetes added after the
 * protobuf files client-java-proto was generated from. Converting to JSON would lose them without a word, so a body
 * that sets one (to anything but its zero value, which kube's JSON leaves out anyway) is refused with 415 and the
 * way round it: send the object as JSON.
 */
final class UnknownFields {

  private UnknownFields() {}

  /**
   * Throws when {@code message} itself (not its children) holds an unknown field with a value.
   *
   * @param message the parsed message
   * @param path where it is in the object ({@code spec.template.spec}), for the error message
   * @param what the kind being decoded, for the error message ({@code apps/v1 Deployment})
   */
  static void refuseSet(Message message, String path, String what) {
    for (Map.Entry<Integer, UnknownFieldSet.Field> field : message.getUnknownFields().asMap().entrySet()) {
      if (!isZero(field.getValue())) {
        throw ApiError.unsupportedMediaType("ctk's fake API server cannot decode this " + what + " from "
            + ProtobufBody.MEDIA_TYPE + ": field number " + field.getKey() + " of "
            + message.getDescriptorForType().getFullName() + (path.isEmpty() ? "" : " (at " + path + ")")
            + " is not in the protobuf schema of io.kubernetes:client-java-proto, so it would be lost. Send the object "
            + "as application/json (for kubectl create: kubectl create ... --dry-run=client -o yaml | kubectl "
            + "apply -f -)");
      }
    }
  }

  private static boolean isZero(UnknownFieldSet.Field field) {
    if (field.getVarintList().stream().anyMatch(v -> v != 0)
        || field.getFixed32List().stream().anyMatch(v -> v != 0)
        || field.getFixed64List().stream().anyMatch(v -> v != 0)) {
      return false;
    }
    for (UnknownFieldSet group : field.getGroupList()) {
      if (!isZero(group)) {
        return false;
      }
    }
    for (ByteString bytes : field.getLengthDelimitedList()) {
      if (!bytes.isEmpty() && !isZeroMessage(bytes)) {
        return false;
      }
    }
    return true;
  }

  /** Bytes that read as a message whose fields are all zero: an unset struct, as Go marshals one. */
  private static boolean isZeroMessage(ByteString bytes) {
    try {
      return isZero(UnknownFieldSet.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      return false;
    }
  }

  private static boolean isZero(UnknownFieldSet fields) {
    return fields.asMap().values().stream().allMatch(UnknownFields::isZero);
  }
}

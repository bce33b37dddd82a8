/** The online libraries' routes take their shapes from server/core/wire, where the owner console reads them too. */
export {
  CallbackQuery,
  ConnectReply,
  ConnectionReply,
  DisconnectReply,
  ImportAccepted,
  ImportBody,
  ImportJobList,
  ImportJobReply,
  ImportReused,
  ItemParams,
  ItemReply,
  ProvidersReply,
  SearchQuery,
  SearchReply,
} from '../core/wire/libraries.js';
